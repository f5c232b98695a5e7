import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asObject, isObject, ownValue } from './records';

/** A `/scans` answer, whose shape the reference does not show, as scans per day and per value. */
export interface DayCount {
	date: string;
	scans: number;
}

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

/**
 * Scans per day from `[{ date, scans }]`, or (readings "scans-days-count" and "scans-days-map")
 * `[{ date, count }]` or a map of date to count; undefined for anything else, none if absent.
 */
export function scansPerDay(days: unknown): DayCount[] | undefined {
	if (days === undefined || days === null) return [];
	const pairs = pairsOf(days, 'date');
	if (!pairs?.every(isPair)) return undefined;
	if (!Array.isArray(days)) pairs.sort(([a], [b]) => a.localeCompare(b));
	return pairs.map(([date, scans]) => ({ date, scans }));
}

/** The service's other names of a breakdown: the reference says "system", the sandbox "os". */
const BREAKDOWN_ALIASES = new Map([['system', ['system', 'os']]]);

/** One breakdown's counts by value; entries in no known shape are left out, not guessed at. */
export function breakdownCounts(breakdowns: unknown, name: string): Pair[] {
	const given = asObject(breakdowns);
	const found = (BREAKDOWN_ALIASES.get(name) ?? [name])
		.map((alias) => given && ownValue(given, alias))
		.find((value) => value !== undefined);
	return (pairsOf(found, 'value') ?? []).filter(isPair);
}

/** The error for scans per day in a shape `scansPerDay` does not know; `fix` says what to do. */
export function unknownDaysError(node: INode, days: unknown, itemIndex: number, fix: string) {
	const text = JSON.stringify(days) ?? String(days);
	const shape = text.length > 200 ? `${text.slice(0, 200)}…` : text;
	return new NodeOperationError(
		node,
		`The service answered scans per day in a shape this node does not know: ${shape}`,
		{ itemIndex, description: `${fix} Report the shape to the maintainers of this node.` },
	);
}
