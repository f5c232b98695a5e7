import type { IDataObject } from 'n8n-workflow';

import { breakdownCounts } from '../../../api';

/**
 * The breakdowns of `/scans` (country, city, device, system, browser, language, origin), added up
 * over codes, and their top values.
 */

/** The report's breakdowns, named as the reference names them. */
export const BREAKDOWNS = [
	'country',
	'city',
	'device',
	'system',
	'browser',
	'language',
	'origin',
] as const;

/** How many values of each breakdown the summary shows. */
export const TOP_VALUES = 5;

export type BreakdownCounts = Map<string, Map<string, number>>;

export const emptyCounts = (): BreakdownCounts =>
	new Map(BREAKDOWNS.map((name) => [name, new Map<string, number>()]));

/** Adds one `/scans` answer's breakdowns to `counts`. */
export function addBreakdowns(counts: BreakdownCounts, breakdowns: unknown): void {
	for (const name of BREAKDOWNS) {
		const total = counts.get(name) as Map<string, number>;
		for (const [value, count] of breakdownCounts(breakdowns, name)) {
			total.set(value, (total.get(value) ?? 0) + count);
		}
	}
}

/** The top values of each breakdown: `{ country: [{ value, scans }], … }`, most scans first. */
export function topValues(counts: BreakdownCounts): IDataObject {
	return Object.fromEntries(
		BREAKDOWNS.map((name) => [
			name,
			[...(counts.get(name) ?? [])]
				.filter(([, scans]) => scans > 0)
				.sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
				.slice(0, TOP_VALUES)
				.map(([value, scans]) => ({ value, scans })),
		]),
	);
}
