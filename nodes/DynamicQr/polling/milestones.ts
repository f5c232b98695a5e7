import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { checkedMilestones, milestoneKey, milestonesBetween } from '../shared/milestoneNumbers';
import { pollingParameters } from './pollingProperties';
import type { CodeView, ScanRule } from './scanEvents';

const item = (code: CodeView, reached: number[]): IDataObject => ({
	...code.summary,
	milestone: reached[reached.length - 1],
	milestones_reached: reached,
	scans: code.scans,
	last_scanned_at: code.record.last_scanned_at ?? null,
	event_key: milestoneKey(code.id, reached[reached.length - 1]),
});

/** Scan Milestone: the highest count seen is kept, so a reset and a climb back fire nothing. */
export function milestoneRule(ctx: IPollFunctions): ScanRule {
	const parameters = pollingParameters(ctx);
	const field = { property: parameters.property('milestones') };
	const milestones = checkedMilestones(parameters, field, parameters.stringList('milestones'));
	return {
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
