import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { pollingParameters } from './pollingProperties';
import { checkedMilestones, milestonesBetween } from '../shared/milestoneNumbers';
import type { CodeView, ScanRule } from './scanRule';
import { codeSummary } from './scanRule';

/** Milestones, checked before any request (an error names the field). */
export function milestonesOf(ctx: IPollFunctions): number[] {
	const parameters = pollingParameters(ctx);
	const field = { property: parameters.property('milestones') };
	return checkedMilestones(
		parameters,
		field,
		parameters.stringList('milestones', { required: true }),
	);
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
			const reached = milestonesBetween(milestones, before.count, code.scans);
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
