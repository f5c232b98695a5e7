import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollingParameters } from './pollingProperties';
import type { CodeView, ScanRule } from './scanRule';
import { codeSummary, DAY_MS } from './scanRule';

/** Quiet for (Days): a whole number of at least 1, checked before any request. */
export const quietDaysOf = (ctx: IPollFunctions): number =>
	pollingParameters(ctx).value('quietDays', { required: true }) as number;

/** Since when the code has been quiet: its last scan, or its creation when never scanned. */
const quietSinceMs = (code: CodeView) =>
	Number.isFinite(code.lastScannedMs) ? code.lastScannedMs : code.createdMs;

const item = (code: CodeView, days: number, nowMs: number): IDataObject => ({
	...codeSummary(code),
	quiet_days: Math.floor((nowMs - quietSinceMs(code)) / DAY_MS),
	quiet_for_days: days,
	scans: code.scans,
	last_scanned_at: code.record.last_scanned_at ?? null,
	created_at: code.record.created_at ?? null,
});

/**
 * Quiet Code: a code fires once when it has had no scan for `days` days (by n8n's clock); the
 * flag in the cursor says its quiet spell was reported, and is cleared when its count rises (a
 * new scan), so it fires again only after a scan and a new quiet spell. Codes already quiet when
 * first seen (at activation) count as reported.
 */
export function quietRule(days: number): ScanRule {
	const isQuiet = (code: CodeView, nowMs: number) => {
		const since = quietSinceMs(code);
		return Number.isFinite(since) && nowMs - since >= days * DAY_MS;
	};
	return {
		settings: String(days),
		baseline: (code, nowMs) => ({ count: code.scans, flag: isQuiet(code, nowMs) ? 1 : 0 }),
		next(code, before, nowMs) {
			let flag = code.scans > before.count ? 0 : before.flag;
			const items: IDataObject[] = [];
			if (!flag && isQuiet(code, nowMs)) {
				items.push(item(code, days, nowMs));
				flag = 1;
			}
			return { state: { count: code.scans, flag }, items };
		},
		sample(codes, nowMs) {
			// The code quiet the longest.
			const known = codes.filter((code) => Number.isFinite(quietSinceMs(code)));
			known.sort((a, b) => quietSinceMs(a) - quietSinceMs(b));
			return known[0] ? item(known[0], days, nowMs) : undefined;
		},
	};
}
