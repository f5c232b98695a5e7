import type { Field, ParameterReader } from './parameters';

const EXPECTED =
	'whole numbers of at least 1, as a list or comma-separated, e.g. "100, 1000, 10000"';

/**
 * The entries of a milestones field (the polling trigger's Milestones, the webhook trigger's "Only
 * at Scan Milestones"), each a whole number of at least 1; sorted, without repeats.
 */
export function checkedMilestones(parameters: ParameterReader, field: Field, entries: string[]) {
	const numbers = entries.map((text) => {
		if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1)
			throw parameters.fail(field, text, EXPECTED);
		return Number(text);
	});
	return [...new Set(numbers)].sort((a, b) => a - b);
}

/** The milestones a count reached that the count before had not: lowest first. */
export const milestonesBetween = (milestones: number[], before: number, now: number): number[] =>
	milestones.filter((milestone) => before < milestone && milestone <= now);
