import type { IDataObject } from 'n8n-workflow';

import { timeMs } from '../api';
import type { Cursor } from './pollState';

/**
 * New Lead and New QR Code keep the ids seen within an overlap window before the newest
 * `created_at` seen, so a record of the same time, or visible after a newer one, is emitted once.
 */
export const OVERLAP_WINDOW_MS = 10 * 60 * 1000;

/** The lower bound to ask for (exclusive), or undefined to ask for everything. */
export const cutoffMs = ({ newestMs, fromMs }: Cursor) =>
	newestMs === undefined ? fromMs : Math.max(newestMs - OVERLAP_WINDOW_MS, fromMs ?? -Infinity);

/** The records not seen before, oldest first; one without a readable time counts as the newest. */
export function advance(cursor: Cursor, records: IDataObject[], nowMs: number): IDataObject[] {
	const known = new Set(cursor.recent.map(([id]) => id));
	// Seen by earlier polls: a service that ignores `since`, or reads it per day, sends them again.
	const pastMs = cutoffMs(cursor) ?? -Infinity;
	const fresh: Array<{ record: IDataObject; at: number; order: number }> = [];
	records.forEach((record, order) => {
		const id = String(record.id ?? '');
		const parsed = timeMs(record.created_at);
		const at = Number.isFinite(parsed) ? parsed : (cursor.newestMs ?? nowMs);
		if (!id || at <= pastMs) return;
		if (!known.has(id)) {
			known.add(id);
			fresh.push({ record, at, order });
			cursor.recent.push([id, at]);
		}
		if (cursor.newestMs === undefined || at > cursor.newestMs) cursor.newestMs = at;
	});
	const keepFrom = cutoffMs(cursor) ?? -Infinity;
	cursor.recent = cursor.recent.filter(([, at]) => at >= keepFrom);
	// Oldest first; the API lists newest first, so among equal times the later index is older.
	fresh.sort((a, b) => a.at - b.at || b.order - a.order);
	return fresh.map((entry) => entry.record);
}
