import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from './client';
import type { Page, PageCursor } from './edge/lists';
import { FIRST_PAGE, pageOf } from './edge/lists';
import { recordId } from './edge/records';
import type { ApiRequestOptions } from './request';

/** The most records a page may hold (the reference's `per_page` maximum). */
export const MAX_PAGE_SIZE = 100;

export type PageOptions = Pick<ApiRequestOptions, 'itemIndex' | 'maxWaitSeconds'>;

/**
 * One page of a paginated list, asked for with `perPage` (kept the same for every page of a
 * list, since page numbers count in it), read as edge/lists.ts reads list answers. A page after
 * the first that is not there comes back empty (edge/fallbacks.ts).
 */
export async function listPage(
	client: ApiClient,
	path: string,
	qs: IDataObject,
	cursor: PageCursor,
	perPage: number,
	options: PageOptions = {},
): Promise<Page> {
	const answer = await client.request<unknown>('GET', path, {
		...options,
		qs: { ...qs, page: cursor.page, per_page: perPage },
	});
	return pageOf(answer, cursor, perPage);
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

/** A list read under way: the request, the run's client and the page size asked for. */
interface ListRead extends ListRequest {
	client: ApiClient;
	perPage: number;
}

const readPage = (read: ListRead, cursor: PageCursor) =>
	listPage(read.client, read.path, read.qs ?? {}, cursor, read.perPage, {
		itemIndex: read.itemIndex,
		maxWaitSeconds: read.maxWaitSeconds,
	});

/**
 * Records of a page not met before, in the list's order. A list that shifted between two pages
 * would otherwise repeat them; records before one already met can only have been created while
 * the list was read (they belong ahead of records already taken) and are left out rather than
 * put out of order.
 */
function freshRecords(records: IDataObject[], seenIds: Set<string>): IDataObject[] {
	let lastSeen = -1;
	records.forEach((record, index) => {
		const id = recordId(record);
		if (id !== undefined && seenIds.has(id)) lastSeen = index;
	});
	return records.slice(lastSeen + 1).filter((record) => {
		const id = recordId(record);
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

function listKeptChanging({ client, itemIndex }: ListRead): NodeOperationError {
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
export async function allItems(client: ApiClient, list: ListRequest): Promise<IDataObject[]> {
	const { limit } = list;
	const perPage = limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;
	const read: ListRead = { ...list, client, perPage };
	const first = await readPage(read, FIRST_PAGE);
	const pages = list.isPast ? undefined : pagesToRead(first, limit);
	if (pages === undefined) return await readInTurn(read, first);
	return (await readAtOnce(read, first, pages)) ?? (await readInTurn(read));
}
