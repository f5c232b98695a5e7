import type { Field, ParameterReader } from './parameters';

const EXPECTED =
	'whole numbers of at least 1, as a list or comma-separated, e.g. "100, 1000, 10000"';

/** A milestones field's entries (both triggers) as whole numbers ≥ 1, sorted, without repeats. */
export function checkedMilestones(parameters: ParameterReader, field: Field, entries: string[]) {
	const numbers = entries.map((text) => {
		if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1)
			throw parameters.fail(field, text, EXPECTED);
		return Number(text);
	});
	return [...new Set(numbers)].sort((a, b) => a - b);
}

/** A code's milestone as an event (docs/triggers.md, "Event keys"): the same from either trigger. */
export const milestoneKey = (codeId: string, milestone: number | undefined) =>
	`milestone:${codeId}:${milestone}`;

/** The milestones a count reached that the count before had not: lowest first. */
export const milestonesBetween = (milestones: number[], before: number, now: number): number[] =>
	milestones.filter((milestone) => before < milestone && milestone <= now);
