import type { IDataObject } from 'n8n-workflow';

import {
	FIRST_PAGE,
	OutOfBudgetError,
	recordId,
	repeatsPage,
	timeMs,
	type ApiClient,
	type Page,
} from '../api';

const PAGE_SIZE = 100;

/**
 * Where a sweep of a newest-first list goes on: a page, the last record taken before it, and the
 * list's `meta.total` when that record was read.
 */
export interface SweepPosition extends IDataObject {
	page: number;
	afterId?: string;
	afterMs?: number;
	total?: number;
}

export interface SweepRead {
	/** Page 1, then what the sweep took, in list order (a record may come twice). */
	records: IDataObject[];
	/** Where the next poll goes on; undefined when this poll reached the end of the list. */
	next?: SweepPosition;
}

const after = (page: Page, number: number): SweepPosition => {
	const last = page.records.at(-1);
	return {
		page: number,
		afterId: recordId(last),
		afterMs: last ? timeMs(last.created_at) : undefined,
		total: page.total,
	};
};

/**
 * Whether a page leaves nothing out since `position`. Records move down the list only when newer
 * ones are created, and up only when ones before them are deleted: while the total has not
 * dropped, nothing moved up. Else the page must hold the last record taken, or begin with a newer
 * one; with neither told (no total, unreadable times) it cannot tell and goes on.
 */
function continues(page: Page, position: SweepPosition): boolean {
	const first = page.records[0];
	if (!first || position.afterId === undefined) return true;
	if (page.total !== undefined && position.total !== undefined && page.total >= position.total) {
		return true;
	}
	if (page.records.some((record) => recordId(record) === position.afterId)) return true;
	const firstMs = timeMs(first.created_at);
	const afterMs = position.afterMs ?? NaN;
	return !Number.isFinite(firstMs) || !Number.isFinite(afterMs) || firstMs > afterMs;
}

/** The records of a page after the last one taken (all of them when it is not on the page). */
function recordsAfter(records: IDataObject[], position: SweepPosition): IDataObject[] {
	const index = records.findIndex((record) => recordId(record) === position.afterId);
	return records.slice(index + 1);
}

/**
 * Page 1 (new records are there), then up to `requests()` − 1 pages from `from`, at once (the
 * count is asked once page 1 has told the plan's rate). Creations make the sweep read some records
 * twice; deletions make it step back a page. A page the budget cannot wait for ends this poll's
 * part of the sweep, not the poll.
 */
export async function readSweep(
	client: ApiClient,
	path: string,
	qs: IDataObject,
	from: SweepPosition | undefined,
	requests: () => number,
): Promise<SweepRead> {
	const first = await client.page(path, qs, FIRST_PAGE, PAGE_SIZE);
	const records = [...first.records];
	if (!first.hasMore) return { records };
	const start = after(first, 2);
	let position = from ?? start;
	let left = requests() - 1;
	while (left > 0) {
		const count = Math.max(1, Math.min(left, (first.lastPage ?? Infinity) - position.page + 1));
		left -= count;
		const pageSize = first.next.pageSize;
		const pages = await Promise.allSettled(
			Array.from({ length: count }, (_, index) =>
				client.page(path, qs, { page: position.page + index, pageSize }, PAGE_SIZE),
			),
		);
		let previousFirstId: string | undefined;
		for (const answer of pages) {
			if (answer.status === 'rejected') {
				if (answer.reason instanceof OutOfBudgetError) return { records, next: position };
				throw answer.reason;
			}
			const page = answer.value;
			// An empty page, or the last page again: the end.
			if (!page.records.length || repeatsPage(page.records, previousFirstId)) return { records };
			if (position !== start && !continues(page, position)) {
				// Page 1, read by this poll, holds what moved up from page 2.
				position = position.page > 2 ? { ...position, page: position.page - 1 } : start;
				break;
			}
			records.push(...recordsAfter(page.records, position));
			if (!page.hasMore) return { records };
			previousFirstId = recordId(page.records[0]);
			position = after(page, position.page + 1);
		}
	}
	return { records, next: position };
}
