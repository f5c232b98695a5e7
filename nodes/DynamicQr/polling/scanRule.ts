import type { IDataObject } from 'n8n-workflow';

import { recordId, scanCount, timeMs } from '../api';
import type { CodeState } from '../shared/packedCodes';

export const DAY_MS = 24 * 60 * 60 * 1000;

/** A code of the list as the scan events read it. */
export interface CodeView {
	record: IDataObject;
	id: string;
	scans: number;
	/** `created_at` in ms (NaN when unreadable). */
	createdMs: number;
	/** `last_scanned_at` in ms (NaN when never scanned). */
	lastScannedMs: number;
}

export function codeView(record: IDataObject): CodeView | undefined {
	const id = recordId(record);
	if (!id) return undefined;
	return {
		record,
		id,
		scans: scanCount(record),
		createdMs: timeMs(record.created_at),
		lastScannedMs: record.last_scanned_at ? timeMs(record.last_scanned_at) : NaN,
	};
}

/** What every scan event's item starts with: the code's id, name, type and short link. */
export const codeSummary = ({ record }: CodeView): IDataObject => ({
	id: record.id,
	name: record.name,
	type: record.type,
	short_url: record.short_url,
});

/**
 * One scan event's rule. A code the cursor does not know yet either existed before (the first
 * poll, or a code that came into the filters): `baseline` records it and nothing is emitted; or
 * it was created since the last poll: it is compared with `{ count: 0, flag: 0 }`, so its scans
 * count as new.
 */
export interface ScanRule {
	/** The settings that belong to the cursor's key (a change starts over). */
	settings: string;
	baseline(code: CodeView, nowMs: number): CodeState;
	next(
		code: CodeView,
		before: CodeState,
		nowMs: number,
	): { state: CodeState; items: IDataObject[] };
	/** Manual "Fetch Test Event": an item for the most telling code, shaped like the event's. */
	sample(codes: CodeView[], nowMs: number): IDataObject | undefined;
}
