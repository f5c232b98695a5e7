// A `/scans` answer, whose shape the reference does not show, as scans per day and per value.
import type { IDataObject, INode } from 'n8n-workflow';

import { unreadableAnswerError } from './errors';
import { asObject, isObject, ownValue } from './records';

type Pair = [string, number];

/** A list of `{ date | value, scans | count }`, or a map to counts; undefined: no known shape. */
function pairsOf(value: unknown, key: 'date' | 'value'): Array<Pair | undefined> | undefined {
	if (Array.isArray(value)) {
		return value.map((entry): Pair | undefined => {
			const object = asObject(entry);
			const count = object?.scans ?? object?.count;
			if (!object || typeof count !== 'number') return undefined;
			if (key === 'value') return [String(object.value ?? 'unknown'), count];
			return typeof object.date === 'string' ? [object.date, count] : undefined;
		});
	}
	if (!isObject(value)) return undefined;
	return Object.entries(value).map(([name, count]) =>
		typeof count === 'number' ? [name, count] : undefined,
	);
}

const isPair = (pair: Pair | undefined): pair is Pair => pair !== undefined;

const DAY_LISTS = ['days', 'per_day']; // the second by reading "scans-per-day"

const dayList = (statistics: IDataObject) =>
	DAY_LISTS.map((name) => ownValue(statistics, name)).find((value) => value !== undefined);

/**
 * The scans per day of a statistics body: `[{ date, scans }]`, or (readings "scans-days-count" and
 * "scans-days-map") `[{ date, count }]` or a map of date to count, under a name of DAY_LISTS (null:
 * none). None in a known shape (reading "scans-days-timeline") fails the item, never gives no days:
 * the error names the list found, else the fields there are, and `fix`.
 */
export function scansPerDay(node: INode, statistics: IDataObject, itemIndex: number, fix: string) {
	const days = dayList(statistics);
	if (days === null) return [];
	const pairs = pairsOf(days, 'date');
	if (!pairs?.every(isPair)) {
		const where = DAY_LISTS.map((name) => `"${name}"`).join(' or ');
		const expected = `scans per day under ${where}, as a list of { date, scans } or a map of date to count (${fix})`;
		throw unreadableAnswerError(node, ['scan statistics', days ?? statistics, expected], itemIndex);
	}
	if (!Array.isArray(days)) pairs.sort(([a], [b]) => a.localeCompare(b));
	return pairs.map(([date, scans]) => ({ date, scans }));
}

/** One breakdown's counts by value; entries in no known shape are left out, not guessed at. */
export function breakdownCounts(breakdowns: unknown, name: string): Pair[] {
	const given = asObject(breakdowns);
	// The reference says "system", the sandbox "os".
	const found = (name === 'system' ? ['system', 'os'] : [name])
		.map((alias) => given && ownValue(given, alias))
		.find((value) => value !== undefined);
	return (pairsOf(found, 'value') ?? []).filter(isPair);
}
