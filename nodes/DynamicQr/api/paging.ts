import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, ApiRequestOptions } from './request';
import { apiRequest } from './request';

/** The most records a page may hold (the reference's `per_page` maximum). */
export const MAX_PAGE_SIZE = 100;

/**
 * Where a list goes on. The reference leaves the list shape and `per_page`'s maximum open, so a
 * service may serve fewer records a page than asked for; once known, its own page size is kept
 * here, and the count of records before `page` follows from it.
 */
export interface PageCursor {
	page: number;
	/** Records a page holds at this service, when known (reported, or what the first page held). */
	pageSize?: number;
}

export const FIRST_PAGE: PageCursor = { page: 1 };

export interface Page {
	records: IDataObject[];
	/** Whether the answer leaves room for another page. */
	hasMore: boolean;
	/** The page after this one. */
	next: PageCursor;
}

type PageOptions = Pick<ApiRequestOptions, 'itemIndex' | 'maxWaitSeconds'>;

const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

/** A count the service reports, as a number or a numeric string; undefined when absent or odd. */
function countOf(value: unknown): number | undefined {
	if (typeof value !== 'number' && typeof value !== 'string') return undefined;
	const count = Number(value);
	return value !== '' && Number.isFinite(count) ? count : undefined;
}

/** The records of a list answer: `data`, or the answer itself when it is a bare array. */
function recordsOf(answer: unknown): IDataObject[] {
	const data = isObject(answer) ? answer.data : answer;
	return Array.isArray(data) ? data.filter(isObject) : [];
}

/** The page size the service reports (`meta.per_page`), when it reports a usable one. */
function reportedPageSize(answer: unknown): number | undefined {
	const size =
		isObject(answer) && isObject(answer.meta) ? countOf(answer.meta.per_page) : undefined;
	return size !== undefined && size >= 1 ? size : undefined;
}

/**
 * What the answer itself says about another page: each signal it carries votes (`links.next`
 * when there are links, the last page by `last_page` or `total_pages`, the `total`), and any
 * one of them can end the list. Undefined when it carries none.
 */
function signalledMore(answer: unknown, page: number, recordsSoFar: number): boolean | undefined {
	if (!isObject(answer)) return undefined;
	const votes: boolean[] = [];
	if (isObject(answer.links)) {
		const next = answer.links.next;
		votes.push(typeof next === 'string' && next !== '');
	}
	const meta = isObject(answer.meta) ? answer.meta : {};
	const lastPage = countOf(meta.last_page) ?? countOf(meta.total_pages);
	if (lastPage !== undefined) votes.push(page < lastPage);
	const total = countOf(meta.total);
	if (total !== undefined) votes.push(recordsSoFar < total);
	return votes.length ? votes.every(Boolean) : undefined;
}

/** Whether a list goes on after a page that said nothing about it. */
function unsignalledMore(held: number, pageSize: number | undefined): boolean {
	// Without a known page size this is the first page: a full one may well have a successor,
	// and a short one may only be a page size capped without a word, so the next is asked once.
	if (pageSize === undefined) return true;
	return held >= pageSize;
}

/**
 * One page of a paginated list, asked for with `perPage` (kept the same for every page of a
 * list, since page numbers count in it). The list ends on an empty page or on whichever signal
 * the answer carries; a page shorter than asked ends it only when the service's own page size
 * (`meta.per_page`, or what its first page held) says that it is the last.
 */
export async function listPage(
	ctx: ApiContext,
	path: string,
	qs: IDataObject,
	cursor: PageCursor,
	perPage: number,
	options: PageOptions = {},
): Promise<Page> {
	const { page } = cursor;
	const answer = await apiRequest<unknown>(ctx, 'GET', path, {
		...options,
		qs: { ...qs, page, per_page: perPage },
	});
	const records = recordsOf(answer);
	const pageSize = reportedPageSize(answer) ?? cursor.pageSize;
	const before = (page - 1) * (pageSize ?? perPage);
	const signal = signalledMore(answer, page, before + records.length);
	const hasMore = records.length > 0 && (signal ?? unsignalledMore(records.length, pageSize));
	return { records, hasMore, next: { page: page + 1, pageSize: pageSize ?? records.length } };
}

export interface AllItemsOptions extends PageOptions {
	/**
	 * For newest-first lists read down to a point: records it marks are left out, and paging
	 * ends after the page that held one.
	 */
	isPast?: (record: IDataObject) => boolean;
}

/**
 * Records not met on an earlier page. A service that answers a page past the end with the last
 * page again, or whose list shifted by a record between two pages, would otherwise repeat them.
 */
function freshRecords(records: IDataObject[], seenIds: Set<string>): IDataObject[] {
	return records.filter((record) => {
		if (typeof record.id !== 'string' && typeof record.id !== 'number') return true;
		const id = String(record.id);
		if (seenIds.has(id)) return false;
		seenIds.add(id);
		return true;
	});
}

/** Every record of a paginated list (or the first `limit`), once each, in the API's order. */
export async function apiRequestAllItems(
	ctx: ApiContext,
	path: string,
	qs: IDataObject = {},
	limit?: number,
	{ isPast, ...options }: AllItemsOptions = {},
): Promise<IDataObject[]> {
	const perPage = limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;
	const records: IDataObject[] = [];
	const seenIds = new Set<string>();
	for (let cursor = FIRST_PAGE; ; ) {
		const answer = await listPage(ctx, path, qs, cursor, perPage, options);
		const fresh = freshRecords(answer.records, seenIds);
		const kept = isPast ? fresh.filter((record) => !isPast(record)) : fresh;
		records.push(...kept);
		if (limit !== undefined && records.length >= limit) return records.slice(0, limit);
		if (!answer.hasMore || fresh.length === 0 || kept.length < fresh.length) return records;
		cursor = answer.next;
	}
}
