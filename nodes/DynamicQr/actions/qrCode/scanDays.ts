import type { INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { asObject } from '../../api';

/** One day of a `/scans` answer. */
export interface DayCount {
	date: string;
	scans: number;
}

/** One day's entry of a list: `{ date, scans }` or `{ date, count }`. */
function dayEntry(entry: unknown): DayCount | undefined {
	const day = asObject(entry);
	const scans = day?.scans ?? day?.count;
	if (typeof day?.date !== 'string' || typeof scans !== 'number') return undefined;
	return { date: day.date, scans };
}

/**
 * Scans per day, whichever shape the service gives them (the reference does not show it): a list
 * of `{ date, scans }` or `{ date, count }`, or a map from date to count. Undefined for anything
 * else. Absent days mean no statistics: no days.
 */
// Readings "scans-days-count" ({ date, count }) and "scans-days-map" (a map of date to count).
export function scansPerDay(days: unknown): DayCount[] | undefined {
	if (days === undefined || days === null) return [];
	if (Array.isArray(days)) {
		const entries = days.map(dayEntry);
		return entries.every((entry) => entry !== undefined) ? (entries as DayCount[]) : undefined;
	}
	const map = asObject(days);
	if (!map) return undefined;
	const entries = Object.entries(map);
	if (!entries.every(([, scans]) => typeof scans === 'number')) return undefined;
	return entries
		.map(([date, scans]) => ({ date, scans: scans as number }))
		.sort((a, b) => a.date.localeCompare(b.date));
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
