import type { Field, ParameterReader } from './parameters';

/**
 * The entries of a milestones field (the polling trigger's Milestones, the webhook trigger's "Only
 * at Scan Milestones"), read as every list field is, each checked: a whole number of at least 1.
 * Sorted, without repeats.
 */
export function checkedMilestones(
	parameters: ParameterReader,
	field: Field,
	entries: string[],
): number[] {
	const numbers = entries.map((text) => {
		if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
			const expected =
				'whole numbers of at least 1, as a list or comma-separated, e.g. "100, 1000, 10000"';
			throw parameters.fail(field, text, expected);
		}
		return Number(text);
	});
	return [...new Set(numbers)].sort((a, b) => a - b);
}

/** The milestones a count reached that the count before had not: lowest first. */
export const milestonesBetween = (milestones: number[], before: number, now: number): number[] =>
	milestones.filter((milestone) => before < milestone && milestone <= now);
