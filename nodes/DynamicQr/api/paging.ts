import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from './client';
import type { Page, PageCursor } from './edge/lists';
import { FIRST_PAGE } from './edge/lists';
import { recordId } from './edge/records';

/** The reference's `per_page` maximum. */
export const MAX_PAGE_SIZE = 100;

/** A whole list to read, or its first `limit` records. */
export interface ListRequest {
	client: ApiClient;
	path: string;
	qs?: IDataObject;
	limit?: number;
	itemIndex?: number;
	/** For newest-first lists read down to a point: records it marks end the list. */
	isPast?: (record: IDataObject) => boolean;
}

export type AllItemsOptions = Pick<ListRequest, 'itemIndex' | 'isPast'>;

const perPageOf = (limit?: number) =>
	limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;

const readPage = ({ client, path, qs = {}, itemIndex, limit }: ListRequest, cursor: PageCursor) =>
	client.page(path, qs, cursor, perPageOf(limit), { itemIndex });

/**
 * Records of a page not met before, in order. Those before one already met were created during
 * the read (they belong ahead of those taken): left out rather than put out of order.
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

const MAX_STEPS_BACK = 20;

/**
 * Page after page. A total that drops means deleted records: the rest slid forward across the
 * page boundary, so the pages the drop spans are read again. New records show as repeats.
 */
async function readInTurn(read: ListRequest, first?: Page): Promise<IDataObject[]> {
	const { limit, isPast } = read;
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
			const pages = Math.ceil(dropped / (cursor.pageSize ?? perPageOf(limit)));
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
 * Pages 2 to `pages` at once. Undefined when the list changed meanwhile: another size reported,
 * a page not full, or (for Return All) page 1 differing when read again at the end, which rules
 * out a deletion offset by a creation (in a newest-first list always on page 1).
 */
async function readAtOnce(read: ListRequest, first: Page, pages: number) {
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

/** Every record (or the first `limit`), once each, in order: pages at once when counted. */
export async function allItems(read: ListRequest): Promise<IDataObject[]> {
	const { limit } = read;
	const first = await readPage(read, FIRST_PAGE);
	const pageSize = first.next.pageSize;
	if (read.isPast || !first.hasMore || first.lastPage === undefined || !pageSize) {
		return await readInTurn(read, first);
	}
	const wanted = limit === undefined ? first.lastPage : Math.ceil(limit / pageSize);
	const pages = Math.min(first.lastPage, wanted);
	if (pages <= 1) return await readInTurn(read, first);
	return (await readAtOnce(read, first, pages)) ?? (await readInTurn(read));
}
