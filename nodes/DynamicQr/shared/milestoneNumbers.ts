/**
 * Scan milestones, as the polling trigger's Scan Milestone event and the webhook trigger's
 * "Only at Scan Milestones" filter read them: whole numbers of at least 1.
 */

export const MILESTONES_EXPECTED =
	'whole numbers of at least 1, as a list or comma-separated, e.g. "100, 1000, 10000"';

/**
 * The entries of a milestones field (read as every list field is), each checked: `fail` builds
 * the error that names the field. Sorted, without repeats.
 */
export function checkedMilestones(entries: string[], fail: (text: string) => Error): number[] {
	const numbers = entries.map((text) => {
		if (!/^\d+$/.test(text) || !Number.isSafeInteger(Number(text)) || Number(text) < 1) {
			throw fail(text);
		}
		return Number(text);
	});
	return [...new Set(numbers)].sort((a, b) => a - b);
}

/** The milestones a count reached that the count before had not: lowest first. */
export const milestonesBetween = (milestones: number[], before: number, now: number): number[] =>
	milestones.filter((milestone) => before < milestone && milestone <= now);
