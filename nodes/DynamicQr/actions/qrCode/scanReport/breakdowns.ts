import type { IDataObject } from 'n8n-workflow';

import { asObject, ownValue } from '../../../api';

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

/** The service's other names of a breakdown: the reference says "system", the sandbox "os". */
const ALIASES: Record<string, string[]> = { system: ['system', 'os'] };

export type BreakdownCounts = Map<string, Map<string, number>>;

export const emptyCounts = (): BreakdownCounts =>
	new Map(BREAKDOWNS.map((name) => [name, new Map<string, number>()]));

/**
 * One breakdown's counts, in whichever shape it comes. The reference does not show the shape
 * of the breakdowns: a list of `{ value, scans }` or `{ value, count }`, or a map from value to
 * count. Entries in no known shape are left out rather than guessed at.
 */
function breakdownEntries(breakdown: unknown): Array<[string, number]> {
	if (Array.isArray(breakdown)) {
		return breakdown.flatMap((entry): Array<[string, number]> => {
			const object = asObject(entry);
			const count = object?.scans ?? object?.count;
			if (!object || typeof count !== 'number') return [];
			return [[String(object.value ?? 'unknown'), count]];
		});
	}
	const map = asObject(breakdown);
	if (!map) return [];
	return Object.entries(map).flatMap(
		([value, count]): Array<[string, number]> =>
			typeof count === 'number' ? [[value, count]] : [],
	);
}

/** Adds one `/scans` answer's breakdowns to `counts`. */
export function addBreakdowns(counts: BreakdownCounts, breakdowns: unknown): void {
	const given = asObject(breakdowns);
	if (!given) return;
	for (const name of BREAKDOWNS) {
		const found = (ALIASES[name] ?? [name])
			.map((alias) => ownValue(given, alias))
			.find((value) => value !== undefined);
		if (found === undefined) continue;
		const total = counts.get(name) as Map<string, number>;
		for (const [value, count] of breakdownEntries(found)) {
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
