import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from './client';
import type { Page, PageCursor } from './edge/lists';
import { FIRST_PAGE, pageOf } from './edge/lists';
import { recordId } from './edge/records';
import type { ApiRequestOptions } from './request';

/** The reference's `per_page` maximum. */
export const MAX_PAGE_SIZE = 100;

export type PageOptions = Pick<ApiRequestOptions, 'itemIndex' | 'maxWaitSeconds'>;

/**
 * One page of a list, asked for with `perPage` (the same for every page of a list: page numbers
 * count in it). A page after the first that is not there comes back empty (edge/fallbacks.ts).
 */
export async function listPage(
	client: ApiClient,
	path: string,
	qs: IDataObject,
	cursor: PageCursor,
	perPage: number,
	options: PageOptions = {},
): Promise<Page> {
	const query = { ...qs, page: cursor.page, per_page: perPage };
	return pageOf(
		await client.request<unknown>('GET', path, { ...options, qs: query }),
		cursor,
		perPage,
	);
}

export interface AllItemsOptions extends PageOptions {
	/** For newest-first lists read down to a point: records it marks end the list. */
	isPast?: (record: IDataObject) => boolean;
}

/** A whole list to read, or its first `limit` records. */
export interface ListRequest extends AllItemsOptions {
	path: string;
	qs?: IDataObject;
	limit?: number;
}

interface ListRead extends ListRequest {
	client: ApiClient;
	perPage: number;
}

const readPage = (
	{ client, path, qs, perPage, itemIndex, maxWaitSeconds }: ListRead,
	cursor: PageCursor,
) => listPage(client, path, qs ?? {}, cursor, perPage, { itemIndex, maxWaitSeconds });

/**
 * Records of a page not met before, in the list's order. Records before one already met can only
 * have been created while the list was read (they belong ahead of records already taken): they
 * are left out rather than put out of order.
 */
function freshRecords(records: IDataObject[], seenIds: Set<string>): IDataObject[] {
	const ids = records.map(recordId);
	const start = ids.map((id) => id !== undefined && seenIds.has(id)).lastIndexOf(true) + 1;
	return records.slice(start).filter((_, index) => {
		const id = ids[start + index];
		if (id === undefined) return true;
		if (seenIds.has(id)) return false;
		seenIds.add(id);
		return true;
	});
}

/** How often a read steps back after records were deleted before giving up on a list. */
const MAX_STEPS_BACK = 20;

/**
 * Page after page. A total that drops between two answers means records were deleted and the
 * ones after them slid towards the front, some across the page boundary: the page before is read
 * again (as many pages as the drop spans) and its records not met yet are taken. Records created
 * meanwhile only push records back, showing as repeats, which are dropped. `first` is the first
 * page, when it is already read.
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
		// Not above 0 unless both answers report a total.
		const dropped = (previous?.total ?? 0) - (answer.total ?? Infinity);
		previous = answer;
		if (dropped > 0 && cursor.page > 1) {
			if (++stepsBack > MAX_STEPS_BACK) {
				throw new NodeOperationError(
					read.client.ctx.getNode(),
					'The list kept losing records while it was read, so it could not be read completely',
					{
						itemIndex: read.itemIndex,
						description:
							'Records were deleted again and again between the pages of the list. Run the node again once the deletions are done.',
					},
				);
			}
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

/** What a list answer says about the list's size, to tell whether it changed between pages. */
const sizeOf = (page: Page) => page.total ?? page.lastPage;

const sameIds = (a: IDataObject[], b: IDataObject[]) =>
	a.length === b.length && a.every((record, index) => record.id === b[index].id);

/**
 * Pages 2 to `pages` at once (as many in flight as the run's Flight allows). Undefined when the
 * list changed while it was read: an answer reporting another size, a page not as full as the
 * size says, or (for Return All) a first page that differs when read again at the end, which
 * rules out a deletion offset by a creation (in a newest-first list always on the first page).
 */
async function readAtOnce(read: ListRead, first: Page, pages: number) {
	const pageSize = first.next.pageSize as number;
	const rest = await Promise.all(
		Array.from({ length: pages - 1 }, (_, index) => readPage(read, { page: index + 2, pageSize })),
	);
	const size = sizeOf(first);
	const full = (page: Page, index: number) =>
		index === rest.length - 1 || page.records.length === pageSize;
	if (!rest.every((page, index) => sizeOf(page) === size && full(page, index))) return undefined;
	const pagesRead = [first, ...rest];
	if (read.limit === undefined) {
		const count = pagesRead.reduce((sum, page) => sum + page.records.length, 0);
		if (first.total !== undefined && count !== first.total) return undefined;
		const again = await readPage(read, FIRST_PAGE);
		if (sizeOf(again) !== size || !sameIds(again.records, first.records)) return undefined;
	}
	const seenIds = new Set<string>();
	return pagesRead.flatMap((page) => freshRecords(page.records, seenIds)).slice(0, read.limit);
}

/**
 * Every record of a list (or the first `limit`), once each, in the API's order. Once the first
 * answer tells how many pages there are, the others are read at once; when it does not, or the
 * list changed while it was read, or it is read down to a point (`isPast`), page after page.
 */
export async function allItems(client: ApiClient, list: ListRequest): Promise<IDataObject[]> {
	const { limit } = list;
	const perPage = limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;
	const read: ListRead = { ...list, client, perPage };
	const first = await readPage(read, FIRST_PAGE);
	const pageSize = first.next.pageSize;
	if (list.isPast || !first.hasMore || first.lastPage === undefined || !pageSize) {
		return await readInTurn(read, first);
	}
	const wanted = limit === undefined ? first.lastPage : Math.ceil(limit / pageSize);
	const pages = Math.min(first.lastPage, wanted);
	if (pages <= 1) return await readInTurn(read, first);
	return (await readAtOnce(read, first, pages)) ?? (await readInTurn(read));
}
