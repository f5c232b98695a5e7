import type { IDataObject } from 'n8n-workflow';

import { unwrap, type ApiClient } from '../api';
import type { CodeView, ScanRule } from './scanEvents';

const MAX_RANGE_MS = 365 * 24 * 60 * 60 * 1000; // the service refuses ranges over 366 days

/** A reading is keyed by the count and the last scan it saw: after a reset, a climb is new. */
const item = (code: CodeView, before: number): IDataObject => ({
	...code.summary,
	scans_before: before,
	scans_now: code.scans,
	new_scans: code.scans - before,
	last_scanned_at: code.record.last_scanned_at ?? null,
	event_key: `new_scans:${code.id}:${code.scans}:${String(code.record.last_scanned_at ?? '')}`,
});

/** New Scans (docs/triggers.md): a count that went down (a reset) emits nothing. */
export const newScansRule: ScanRule = {
	next: (code, before) => ({
		state: { count: code.scans, flag: 0 },
		items: code.scans > before.count ? [item(code, before.count)] : [],
	}),
	sample(codes) {
		// The code scanned last, as if its last scan were new.
		const scanned = codes.filter((code) => code.scans > 0 && Number.isFinite(code.lastScannedMs));
		scanned.sort((a, b) => b.lastScannedMs - a.lastScannedMs);
		return scanned[0] ? item(scanned[0], scanned[0].scans - 1) : undefined;
	},
};

const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Include Breakdown: whole days to today, or to the last scan if the service's clock is ahead. */
export async function addBreakdowns(
	client: ApiClient,
	items: IDataObject[],
	sinceMs: number,
	nowMs: number,
): Promise<void> {
	await Promise.all(
		items.map(async (entry) => {
			const lastMs = Date.parse(String(entry.last_scanned_at ?? ''));
			const toMs = Number.isFinite(lastMs) ? Math.max(nowMs, lastMs) : nowMs;
			const fromMs = Math.max(Math.min(sinceMs, toMs), toMs - MAX_RANGE_MS);
			const path = `/qr-codes/${encodeURIComponent(String(entry.id))}/scans`;
			const qs = { from: day(fromMs), to: day(toMs) };
			entry.breakdown = unwrap(await client.request('GET', path, { qs }));
		}),
	);
}
