import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollingParameters } from './description';
import type { CodeView, ScanRule } from './scanRule';
import { codeSummary } from './scanRule';

const EXPECTED =
	'whole numbers of at least 1, as a list or comma-separated, e.g. "100, 1000, 10000"';

/**
 * Milestones: a list, or a text of comma-separated whole numbers, each at least 1 (read as every
 * list field is, then each entry checked); checked before any request, naming the field. Sorted,
 * without repeats.
 */
export function milestonesOf(ctx: IPollFunctions): number[] {
	const parameters = pollingParameters(ctx);
	const entries = parameters.stringList('milestones', { required: true });
	const numbers = entries.map((text) => {
		if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
			throw parameters.fail({ property: parameters.property('milestones') }, text, EXPECTED);
		}
		return Number(text);
	});
	return [...new Set(numbers)].sort((a, b) => a - b);
}

const item = (code: CodeView, reached: number[]): IDataObject => ({
	...codeSummary(code),
	milestone: reached[reached.length - 1],
	milestones_reached: reached,
	scans: code.scans,
	last_scanned_at: code.record.last_scanned_at ?? null,
});

/**
 * Scan Milestone: the cursor keeps each code's highest count seen, so a milestone fires once per
 * code, when the count first reaches or passes it; never again after the count went down and up
 * (a reset), never for one passed before the code was first seen. A code that passed several
 * milestones since the last poll gives ONE item: `milestone` the highest, `milestones_reached`
 * all of them, lowest first.
 */
export function milestoneRule(milestones: number[]): ScanRule {
	return {
		settings: '',
		baseline: (code) => ({ count: code.scans, flag: 0 }),
		next(code, before) {
			const reached = milestones.filter((m) => before.count < m && m <= code.scans);
			return {
				state: { count: Math.max(before.count, code.scans), flag: 0 },
				items: reached.length ? [item(code, reached)] : [],
			};
		},
		sample(codes) {
			// The code with the most scans, with the milestones it has reached (else the first one).
			const top = [...codes].sort((a, b) => b.scans - a.scans)[0];
			if (!top) return undefined;
			const reached = milestones.filter((m) => m <= top.scans);
			return item(top, reached.length ? reached : [milestones[0]]);
		},
	};
}
