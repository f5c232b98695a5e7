import type { IDataObject } from 'n8n-workflow';

import { asObject, atLeast, countOf, isObject, recordId } from './records';

/** Where a list goes on; the service's own page size, once known, counts the records before. */
export interface PageCursor {
	page: number;
	pageSize?: number;
	previousFirstId?: string; // the first record of the page before, to know that page again
}

export const FIRST_PAGE: PageCursor = { page: 1 };

export interface Page {
	records: IDataObject[];
	hasMore: boolean;
	next: PageCursor;
	total?: number; // `meta.total` when this answer was made
	lastPage?: number;
}

/** Reading "page-past-end-repeats-last": a page past the end answered as the last page again. */
export const repeatsPage = (records: IDataObject[], previousFirstId?: string) =>
	previousFirstId !== undefined && recordId(records[0]) === previousFirstId;

/**
 * A list answer (`data`, or a bare array) as a page. Each signal votes and any can end the list:
 * `links.next` (readings "links-next-only", "links-without-next": no `next` says nothing),
 * `last_page` or `total_pages` (reading "meta-total-pages"), `total`. With none (reading
 * "data-only") a short page ends it, once the page size is known: a short first page may be a
 * silent cap. The service's own page size counts the pages (readings "per-page-cap-50",
 * "per-page-ignored"). Undefined for an answer without its records.
 */
export function pageOf(answer: unknown, cursor: PageCursor, perPage: number): Page | undefined {
	const data = isObject(answer) ? answer.data : answer;
	// No list of records (reading "list-items-key"): an empty page would end the list as if read.
	if (!Array.isArray(data)) return undefined;
	const records = data.filter(isObject);
	const firstId = recordId(records[0]);
	if (repeatsPage(records, cursor.previousFirstId))
		return { records: [], hasMore: false, next: cursor };
	const [links, meta] = ['links', 'meta'].map((key) => asObject(asObject(answer)?.[key]) ?? {});
	const pageSize = atLeast(countOf(meta.per_page), 1) ?? cursor.pageSize;
	const total = countOf(meta.total);
	const reportedLast = countOf(meta.last_page) ?? countOf(meta.total_pages);
	const votes: boolean[] = [];
	if (links.next !== undefined) votes.push(typeof links.next === 'string' && links.next !== '');
	if (reportedLast !== undefined) votes.push(cursor.page < reportedLast);
	const before = (cursor.page - 1) * (pageSize ?? perPage);
	if (total !== undefined) votes.push(before + records.length < total);
	const unsaid = pageSize === undefined || records.length >= pageSize;
	const hasMore = records.length > 0 && (votes.length ? votes.every(Boolean) : unsaid);
	const servedSize = pageSize ?? (hasMore ? records.length : undefined);
	const lastPage =
		reportedLast ??
		(total !== undefined && servedSize ? Math.max(1, Math.ceil(total / servedSize)) : undefined);
	return {
		records,
		hasMore,
		next: { page: cursor.page + 1, pageSize: pageSize ?? records.length, previousFirstId: firstId },
		total,
		lastPage,
	};
}
