import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { ApiClient } from './client';
import { OutOfBudgetError } from './edge/errors';
import { repeatsPage, type Page } from './edge/lists';
import { recordId, timeMs } from './edge/records';
import type { PlanShare } from './rate';

const MAX_PAGE_SIZE = 100; // the reference's `per_page` maximum

/** Where a read goes on: a page, the last record taken before it, `meta.total` at that time. */
export interface ListPosition extends IDataObject {
	page: number;
	afterId?: string;
	afterMs?: number;
	total?: number;
}

export interface ListRead {
	path: string;
	qs?: IDataObject;
	limit?: number;
	itemIndex?: number;
	isPast?: (record: IDataObject) => boolean; // a newest-first list read down to a point ends there
	/**
	 * A poll's share of the plan: the requests it may send, page 1 included (counted once page 1
	 * told the plan's rate). What it or the time budget leaves unread ends the read, with a position.
	 */
	share?: PlanShare;
	from?: ListPosition; // where an earlier read goes on, after page 1 (new records are there)
}

const perPageOf = (limit?: number) =>
	limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;

const readPage = (client: ApiClient, read: ListRead, page: number, pageSize?: number) =>
	client.page(read.path, read.qs ?? {}, { page, pageSize }, perPageOf(read.limit), read.itemIndex);

const readPages = (client: ApiClient, read: ListRead, from: number, count: number, size: number) =>
	Array.from({ length: count }, (_, index) => readPage(client, read, from + index, size));

/**
 * Records of a page not taken before, in order. Those before one already taken were created
 * during the read (they belong ahead of it): left out rather than put out of order.
 */
function freshRecords(records: IDataObject[], taken: Set<string>): IDataObject[] {
	const ids = records.map(recordId);
	const start = ids.map((id) => id !== undefined && taken.has(id)).lastIndexOf(true) + 1;
	return records.slice(start).filter((_, index) => {
		const id = ids[start + index];
		const fresh = id === undefined || !taken.has(id);
		if (id !== undefined) taken.add(id);
		return fresh;
	});
}

/**
 * The one rule for pages that shift: the pages to step back (0: go on). Records move down only when
 * newer ones are created (they come again, left out as taken), up only when ones before them are
 * deleted: while the total has not dropped, nothing moved up. Else the page must hold the last
 * record taken or begin with a newer one (untold: go on), or it steps back as far as the drop spans.
 */
function stepsBack(page: Page, at: ListPosition, pageSize: number): number {
	const dropped = (at.total ?? 0) - (page.total ?? Infinity); // above 0 only if both are told
	if (at.afterId === undefined || at.page === 1 || !(dropped > 0)) return 0;
	if (page.records.some((record) => recordId(record) === at.afterId)) return 0;
	const [firstMs, afterMs] = [timeMs(page.records[0]?.created_at), at.afterMs ?? NaN];
	const untold = !Number.isFinite(firstMs) || !Number.isFinite(afterMs);
	if (page.records.length && (untold || firstMs > afterMs)) return 0;
	return Math.max(1, Math.ceil(dropped / pageSize));
}

const MAX_STEPS_BACK = 20;

/**
 * Page after page from `from` (after page 1), as many at once as the share leaves (else one).
 * A page that does not continue the position steps back; the share or the time budget ends the
 * read with the position to go on from.
 */
async function readInTurn(client: ApiClient, read: ListRead, first: Page) {
	const { limit, isPast, share } = read;
	const pageSize = first.next.pageSize ?? perPageOf(limit);
	const taken = new Set<string>();
	const records: IDataObject[] = [];
	let resumeAt = read.from;
	let left = share ? client.rate.requestsPerPoll(share, client.msLeft()) - 1 : Infinity;
	let position: ListPosition = { page: 1 };
	let pages: Array<PromiseSettledResult<Page>> = [{ status: 'fulfilled', value: first }];
	let previousFirstId: string | undefined;
	let stepped = 0;
	let rereading = false;
	for (;;) {
		for (const answer of pages) {
			if (answer.status === 'rejected') {
				if (share && answer.reason instanceof OutOfBudgetError) return { records, next: position };
				throw answer.reason;
			}
			const page = answer.value;
			const back = stepsBack(page, position, pageSize);
			if (back > 0) {
				if (++stepped > MAX_STEPS_BACK) {
					if (share) return { records, next: position };
					throw new NodeOperationError(
						client.ctx.getNode(),
						'The list kept losing records while it was read, so it could not be read completely',
						{
							itemIndex: read.itemIndex,
							description:
								'Records were deleted again and again between the pages of the list. Run the node again once the deletions are done.',
						},
					);
				}
				position = { ...position, page: Math.max(1, position.page - back) };
				previousFirstId = undefined; // the page stepped back to does not follow this one
				rereading = true;
				break;
			}
			if (!page.records.length || repeatsPage(page.records, previousFirstId)) return { records };
			const fresh = freshRecords(page.records, taken);
			const kept = isPast ? fresh.filter((record) => !isPast(record)) : fresh;
			records.push(...kept);
			if (records.length >= (limit ?? Infinity)) return { records: records.slice(0, limit) };
			if (!page.hasMore || kept.length < fresh.length) return { records };
			if (fresh.length === 0 && !rereading) return { records };
			rereading = rereading && fresh.length === 0;
			previousFirstId = recordId(page.records[0]);
			const last = page.records.at(-1);
			const [afterId, afterMs] = [recordId(last), timeMs(last?.created_at)];
			position = { page: position.page + 1, afterId, afterMs, total: page.total };
			if (!resumeAt) continue;
			// Then where an earlier read ended: not after page 1, maybe stepped back to records taken.
			position = resumeAt;
			resumeAt = previousFirstId = undefined;
			rereading = true;
			if (position.afterId !== undefined) taken.add(position.afterId);
		}
		if (left <= 0) return { records, next: position };
		const count = share
			? Math.max(1, Math.min(left, (first.lastPage ?? Infinity) - position.page + 1))
			: 1;
		left -= count;
		pages = await Promise.allSettled(readPages(client, read, position.page, count, pageSize));
	}
}

/** What a list answer says about the list's size, to tell whether it changed between pages. */
const sizeOf = (page: Page) => page.total ?? page.lastPage;

/**
 * Pages 2 to `pages` at once. Undefined when the list changed meanwhile: another size reported,
 * a page not full, or (for Return All) page 1 differing when read again at the end, which rules
 * out a deletion offset by a creation (in a newest-first list always on page 1).
 */
async function readAtOnce(client: ApiClient, read: ListRead, first: Page, pages: number) {
	const pageSize = first.next.pageSize as number;
	const rest = await Promise.all(readPages(client, read, 2, pages - 1, pageSize));
	const size = sizeOf(first);
	const full = (page: Page, index: number) =>
		index === rest.length - 1 || page.records.length === pageSize;
	if (!rest.every((page, index) => sizeOf(page) === size && full(page, index))) return undefined;
	const pagesRead = [first, ...rest];
	if (read.limit === undefined) {
		const count = pagesRead.reduce((sum, page) => sum + page.records.length, 0);
		if (first.total !== undefined && count !== first.total) return undefined;
		const again = await readPage(client, read, 1);
		const ids = (page: Page) => JSON.stringify(page.records.map(recordId));
		if (sizeOf(again) !== size || ids(again) !== ids(first)) return undefined;
	}
	const taken = new Set<string>();
	return pagesRead.flatMap((page) => freshRecords(page.records, taken)).slice(0, read.limit);
}

/**
 * THE list reader: page 1, then the rest at once when the list is counted and read whole, else
 * page after page; records in list order (a resumed read may repeat one), `next` unless at the end.
 */
export async function readList(client: ApiClient, read: ListRead) {
	const first = await readPage(client, read, 1);
	const { lastPage = 1, next } = first;
	const pages = Math.min(lastPage, Math.ceil((read.limit ?? Infinity) / (next.pageSize ?? 1)));
	const whole = !read.isPast && !read.share && !read.from && first.hasMore && next.pageSize;
	if (!whole || pages <= 1) return await readInTurn(client, read, first);
	const records = await readAtOnce(client, read, first, pages);
	return records ? { records } : await readInTurn(client, read, await readPage(client, read, 1));
}
