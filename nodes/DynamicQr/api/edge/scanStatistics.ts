import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asObject, ownValue } from './records';

/**
 * A `/scans` answer, whose shape the reference does not show, read as scans per day and counts
 * per breakdown value.
 */

/** One day of a `/scans` answer. */
export interface DayCount {
	date: string;
	scans: number;
}

/** One entry of a list: `{ date, scans }` or `{ date, count }` (or `value` for `date`). */
function entryOf(entry: unknown, key: 'date' | 'value'): [string, number] | undefined {
	const object = asObject(entry);
	const count = object?.scans ?? object?.count;
	if (!object || typeof count !== 'number') return undefined;
	if (key === 'date') return typeof object.date === 'string' ? [object.date, count] : undefined;
	return [String(object.value ?? 'unknown'), count];
}

/** A map from date (or value) to count, its entries; undefined when a count is not a number. */
function mapEntries(value: unknown): Array<[string, number]> | undefined {
	const map = asObject(value);
	if (!map) return undefined;
	const entries = Object.entries(map);
	return entries.every(([, count]) => typeof count === 'number')
		? (entries as Array<[string, number]>)
		: undefined;
}

/**
 * Scans per day: a list of `{ date, scans }`, or (readings "scans-days-count" and
 * "scans-days-map") of `{ date, count }`, or a map from date to count. Undefined for anything
 * else. Absent days mean no statistics: no days.
 */
export function scansPerDay(days: unknown): DayCount[] | undefined {
	if (days === undefined || days === null) return [];
	const entries = Array.isArray(days)
		? days.map((entry) => entryOf(entry, 'date'))
		: mapEntries(days)?.sort(([a], [b]) => a.localeCompare(b));
	if (!entries?.every((entry) => entry !== undefined)) return undefined;
	return (entries as Array<[string, number]>).map(([date, scans]) => ({ date, scans }));
}

/** The service's other names of a breakdown: the reference says "system", the sandbox "os". */
const BREAKDOWN_ALIASES = new Map([['system', ['system', 'os']]]);

/**
 * One breakdown's counts by value (`breakdowns` as the answer gives them, `name` as the reference
 * names the breakdown), from a list of `{ value, scans }` or `{ value, count }`, or a map from
 * value to count. Entries in no known shape are left out rather than guessed at.
 */
export function breakdownCounts(breakdowns: unknown, name: string): Array<[string, number]> {
	const given = asObject(breakdowns);
	if (!given) return [];
	const found = (BREAKDOWN_ALIASES.get(name) ?? [name])
		.map((alias) => ownValue(given, alias))
		.find((value) => value !== undefined);
	if (Array.isArray(found)) {
		return found.flatMap((entry) => {
			const pair = entryOf(entry, 'value');
			return pair ? [pair] : [];
		});
	}
	return Object.entries(asObject(found) ?? {}).filter(
		(pair): pair is [string, number] => typeof pair[1] === 'number',
	);
}

/** What the service sent, shortened for an error message (scan counts hold nothing secret). */
function describeShape(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** The error for scans per day in a shape `scansPerDay` does not know; `fix` says what to do. */
export function unknownDaysError(
	node: INode,
	days: unknown,
	itemIndex: number,
	fix: string,
): NodeOperationError {
	return new NodeOperationError(
		node,
		`The service answered scans per day in a shape this node does not know: ${describeShape(days)}`,
		{ itemIndex, description: `${fix} Report the shape to the maintainers of this node.` },
	);
}
