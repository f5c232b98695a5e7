import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isGone } from './errors';
import {
	countOf,
	idOf,
	recordsOf,
	reportedPageSize,
	signalledMore,
	unsignalledMore,
} from './listAnswer';
import type { ApiClient } from './client';
import { isObject } from './records';
import type { ApiRequestOptions } from './request';

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
	/** The id of the first record of the page before, to know that page when it comes again. */
	previousFirstId?: string;
}

export const FIRST_PAGE: PageCursor = { page: 1 };

export interface Page {
	records: IDataObject[];
	/** Whether the answer leaves room for another page. */
	hasMore: boolean;
	/** The page after this one. */
	next: PageCursor;
	/** Records in the whole list when this answer was made, as it reports (`meta.total`). */
	total?: number;
	/** Pages the list has, as the answer reports or its total and the service's page size tell. */
	lastPage?: number;
}

export type PageOptions = Pick<ApiRequestOptions, 'itemIndex' | 'maxWaitSeconds'>;

/** A page past the end of the list: no records, and none after it. */
const pastTheEnd = (cursor: PageCursor): Page => ({ records: [], hasMore: false, next: cursor });

/**
 * One page of a paginated list, asked for with `perPage` (kept the same for every page of a
 * list, since page numbers count in it). The list ends on an empty page, on a page past the end
 * (answered 404, or as the page before again) or on whichever signal the answer carries; a page
 * shorter than asked ends it only when the service's own page size (`meta.per_page`, or what its
 * first page held) says that it is the last.
 */
export async function listPage(
	client: ApiClient,
	path: string,
	qs: IDataObject,
	cursor: PageCursor,
	perPage: number,
	options: PageOptions = {},
): Promise<Page> {
	const { page } = cursor;
	let answer: unknown;
	let failure: unknown;
	try {
		answer = await client.request<unknown>('GET', path, {
			...options,
			qs: { ...qs, page, per_page: perPage },
		});
	} catch (error) {
		failure = error;
	}
	if (failure !== undefined) {
		// Reading "page-past-end-404": a service may answer a page past the end with 404 (or 410,
		// reading "gone-410"). After a first page that ends the list; on page 1 it is an error.
		if (page > 1 && isGone(failure)) return pastTheEnd(cursor);
		// Anything else is the API error the client built: passed on as it is.
		throw failure;
	}
	const records = recordsOf(answer);
	// Reading "page-past-end-repeats-last": a service may answer a page past the end with the
	// last page again. A page that begins with the record the page before began with is that page.
	const firstId = idOf(records[0]);
	if (firstId !== undefined && firstId === cursor.previousFirstId) return pastTheEnd(cursor);
	const pageSize = reportedPageSize(answer) ?? cursor.pageSize;
	const before = (page - 1) * (pageSize ?? perPage);
	const signal = signalledMore(answer, page, before + records.length);
	const hasMore = records.length > 0 && (signal ?? unsignalledMore(records.length, pageSize));
	// A first page that is not the last one holds a full page: the service's own page size.
	const servedSize = pageSize ?? (hasMore ? records.length : undefined);
	const meta = isObject(answer) && isObject(answer.meta) ? answer.meta : {};
	const total = countOf(meta.total);
	const lastPage =
		countOf(meta.last_page) ??
		countOf(meta.total_pages) ??
		(total !== undefined && servedSize ? Math.max(1, Math.ceil(total / servedSize)) : undefined);
	return {
		records,
		hasMore,
		next: { page: page + 1, pageSize: pageSize ?? records.length, previousFirstId: firstId },
		total,
		lastPage,
	};
}

export interface AllItemsOptions extends PageOptions {
	/**
	 * For newest-first lists read down to a point: records it marks are left out, and paging
	 * ends after the page that held one.
	 */
	isPast?: (record: IDataObject) => boolean;
}

/** A whole list to read: its path and filters, and the first `limit` records when given. */
export interface ListRequest extends AllItemsOptions {
	path: string;
	qs?: IDataObject;
	limit?: number;
}

/** A list read under way: the request, the page size asked for, and the run's client. */
interface ListRead {
	client: ApiClient;
	path: string;
	qs: IDataObject;
	perPage: number;
	limit?: number;
	pageOptions: PageOptions;
	isPast?: (record: IDataObject) => boolean;
}

const readPage = (read: ListRead, cursor: PageCursor) =>
	listPage(read.client, read.path, read.qs, cursor, read.perPage, read.pageOptions);

/**
 * Records of a page not met before, in the list's order. A list that shifted between two pages
 * would otherwise repeat them; records before one already met can only have been created while
 * the list was read (they belong ahead of records already taken) and are left out rather than
 * put out of order.
 */
function freshRecords(records: IDataObject[], seenIds: Set<string>): IDataObject[] {
	let lastSeen = -1;
	records.forEach((record, index) => {
		const id = idOf(record);
		if (id !== undefined && seenIds.has(id)) lastSeen = index;
	});
	return records.slice(lastSeen + 1).filter((record) => {
		const id = idOf(record);
		if (id === undefined) return true;
		if (seenIds.has(id)) return false;
		seenIds.add(id);
		return true;
	});
}

/** How often a read steps back after records were deleted before giving up on a list. */
const MAX_STEPS_BACK = 20;

/**
 * Page after page. A list whose total drops between two answers had records deleted while it
 * was read, and the records after them slid towards the front, some across the boundary
 * between the two pages: the page before is read again (as many pages as the drop spans) and
 * its records not met yet are taken, so none is lost. Records created while the list is read
 * come first in a newest-first list and only push records back, which shows as repeats, which
 * are dropped. `first` is the first page, when it is already read.
 */
async function readInTurn(read: ListRead, first?: Page): Promise<IDataObject[]> {
	const { perPage, limit, isPast } = read;
	const records: IDataObject[] = [];
	const seenIds = new Set<string>();
	let cursor = FIRST_PAGE;
	let previous: Page | undefined;
	let stepsBack = 0;
	let rereading = false;
	for (;;) {
		const answer = previous === undefined && first ? first : await readPage(read, cursor);
		const dropped =
			previous?.total !== undefined && answer.total !== undefined
				? previous.total - answer.total
				: 0;
		previous = answer;
		if (dropped > 0 && cursor.page > 1) {
			if (++stepsBack > MAX_STEPS_BACK) throw listKeptChanging(read);
			const pages = Math.ceil(dropped / (cursor.pageSize ?? perPage));
			// The page stepped back to does not follow the page just read: no previousFirstId.
			cursor = { page: Math.max(1, cursor.page - pages), pageSize: cursor.pageSize };
			rereading = true;
			continue;
		}
		const fresh = freshRecords(answer.records, seenIds);
		const kept = isPast ? fresh.filter((record) => !isPast(record)) : fresh;
		records.push(...kept);
		if (limit !== undefined && records.length >= limit) return records.slice(0, limit);
		if (!answer.hasMore || kept.length < fresh.length) return records;
		if (fresh.length === 0 && !rereading) return records;
		rereading = rereading && fresh.length === 0;
		cursor = answer.next;
	}
}

function listKeptChanging({ client, pageOptions }: ListRead): NodeOperationError {
	const { itemIndex } = pageOptions;
	return new NodeOperationError(
		client.ctx.getNode(),
		'The list kept losing records while it was read, so it could not be read completely',
		{
			itemIndex,
			description:
				'Records were deleted again and again between the pages of the list. Run the node again once the deletions are done.',
		},
	);
}

/** The pages a parallel read needs, when the first answer says how many the list has. */
function pagesToRead(first: Page, limit: number | undefined): number | undefined {
	const pageSize = first.next.pageSize;
	if (!first.hasMore || first.lastPage === undefined || !pageSize) return undefined;
	const pages = limit === undefined ? first.lastPage : Math.ceil(limit / pageSize);
	const count = Math.min(first.lastPage, pages);
	return count > 1 ? count : undefined;
}

/** What a list answer says about the list's size, to tell whether it changed between pages. */
const sizeOf = (page: Page) => page.total ?? page.lastPage;

const sameIds = (a: IDataObject[], b: IDataObject[]) =>
	a.length === b.length && a.every((record, index) => record.id === b[index].id);

/**
 * Pages 2 to `pages` at once (as many in flight as the run's Flight allows).
 * Undefined when the list changed while it was read: any answer reporting another size, a page
 * not as full as the size says, or (for Return All) a first page that differs when read again
 * at the end. That last read rules out what the totals alone cannot show: a deletion offset by
 * a creation, which in a newest-first list always lands on the first page.
 */
async function readAtOnce(
	read: ListRead,
	first: Page,
	pages: number,
): Promise<IDataObject[] | undefined> {
	const { limit } = read;
	const pageSize = first.next.pageSize as number;
	const rest = await Promise.all(
		Array.from({ length: pages - 1 }, (_, index) => readPage(read, { page: index + 2, pageSize })),
	);
	const size = sizeOf(first);
	const full = (page: Page, index: number) =>
		index === rest.length - 1 || page.records.length === pageSize;
	if (!rest.every((page, index) => sizeOf(page) === size && full(page, index))) return undefined;
	if (limit === undefined) {
		if (first.total !== undefined) {
			const read = rest.reduce((sum, page) => sum + page.records.length, first.records.length);
			if (read !== first.total) return undefined;
		}
		const again = await readPage(read, FIRST_PAGE);
		if (sizeOf(again) !== size || !sameIds(again.records, first.records)) return undefined;
	}
	const seenIds = new Set<string>();
	const records = freshRecords(first.records, seenIds);
	for (const page of rest) records.push(...freshRecords(page.records, seenIds));
	return limit === undefined ? records : records.slice(0, limit);
}

/**
 * Every record of a paginated list (or the first `limit`), once each, in the API's order.
 * Once the first answer tells how many pages there are (from what the service reports, its own
 * page size included), the other pages are read at once; when it does not, or the list changed
 * while it was read, page after page. A read down to a point (`isPast`) goes page after page,
 * as it stops at a page no count foretells.
 */
export async function allItems(
	client: ApiClient,
	{ path, qs = {}, limit, isPast, ...pageOptions }: ListRequest,
): Promise<IDataObject[]> {
	const perPage = limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;
	const read: ListRead = { client, path, qs, perPage, limit, pageOptions, isPast };
	const first = await readPage(read, FIRST_PAGE);
	const pages = isPast ? undefined : pagesToRead(first, limit);
	if (pages === undefined) return await readInTurn(read, first);
	return (await readAtOnce(read, first, pages)) ?? (await readInTurn(read));
}
