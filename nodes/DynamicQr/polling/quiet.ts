import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollingParameters } from './pollingProperties';
import type { CodeView, ScanRule } from './scanEvents';

const DAY_MS = 24 * 60 * 60 * 1000;

/** Since when the code has been quiet: its last scan, or its creation when never scanned. */
const quietSinceMs = (code: CodeView) =>
	Number.isFinite(code.lastScannedMs) ? code.lastScannedMs : code.createdMs;

/** A spell is keyed by when it began and the days it took: a new scan begins another. */
const item = (code: CodeView, days: number, nowMs: number): IDataObject => ({
	...code.summary,
	quiet_days: Math.floor((nowMs - quietSinceMs(code)) / DAY_MS),
	quiet_for_days: days,
	scans: code.scans,
	last_scanned_at: code.record.last_scanned_at ?? null,
	created_at: code.record.created_at ?? null,
	event_key: `quiet:${code.id}:${days}:${new Date(quietSinceMs(code)).toISOString()}`,
});

/** Quiet Code (docs/triggers.md): `flag`, this quiet spell was reported; a new scan clears it. */
export function quietRule(ctx: IPollFunctions): ScanRule {
	const days = pollingParameters(ctx).number('quietDays') as number;
	const isQuiet = (code: CodeView, nowMs: number) => nowMs - quietSinceMs(code) >= days * DAY_MS;
	return {
		settings: String(days),
		next(code, before, nowMs) {
			const flag = code.scans > before.count ? 0 : before.flag;
			const fires = !flag && isQuiet(code, nowMs);
			return {
				state: { count: code.scans, flag: fires ? 1 : flag },
				items: fires ? [item(code, days, nowMs)] : [],
			};
		},
		sample(codes, nowMs) {
			// The code quiet the longest.
			const known = codes.filter((code) => Number.isFinite(quietSinceMs(code)));
			known.sort((a, b) => quietSinceMs(a) - quietSinceMs(b));
			return known[0] ? item(known[0], days, nowMs) : undefined;
		},
	};
}
