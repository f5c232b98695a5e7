import type { IDataObject } from 'n8n-workflow';

import type { ApiContext, ApiRequestOptions } from './request';
import { apiRequest } from './request';

/** The most records a page may hold (the reference's `per_page` maximum). */
export const MAX_PAGE_SIZE = 100;

interface ListAnswer {
	data?: IDataObject[];
	links?: { next?: string | null };
	meta?: { current_page?: number; last_page?: number };
}

export interface Page {
	records: IDataObject[];
	/** Whether the answer leaves room for another page. */
	hasMore: boolean;
}

type PageOptions = Pick<ApiRequestOptions, 'itemIndex' | 'maxWaitSeconds'>;

/**
 * One page of a paginated list. The list ends on whichever signal the answer carries first:
 * `links.next` null, the last page reached, or a page shorter than asked for.
 */
export async function listPage(
	ctx: ApiContext,
	path: string,
	qs: IDataObject,
	page: number,
	perPage: number,
	options: PageOptions = {},
): Promise<Page> {
	const answer = await apiRequest<ListAnswer>(ctx, 'GET', path, {
		...options,
		qs: { ...qs, page, per_page: perPage },
	});
	const records = Array.isArray(answer.data) ? answer.data : [];
	const lastPage = answer.meta?.last_page;
	const hasMore = !(
		answer.links?.next === null ||
		(lastPage !== undefined && page >= lastPage) ||
		records.length < perPage
	);
	return { records, hasMore };
}

export interface AllItemsOptions extends PageOptions {
	/**
	 * For newest-first lists read down to a point: records it marks are left out, and paging
	 * ends after the page that held one.
	 */
	isPast?: (record: IDataObject) => boolean;
}

/** Every record of a paginated list (or the first `limit`), in the API's order. */
export async function apiRequestAllItems(
	ctx: ApiContext,
	path: string,
	qs: IDataObject = {},
	limit?: number,
	{ isPast, ...options }: AllItemsOptions = {},
): Promise<IDataObject[]> {
	const perPage = limit !== undefined && limit < MAX_PAGE_SIZE ? Math.max(1, limit) : MAX_PAGE_SIZE;
	const records: IDataObject[] = [];
	for (let page = 1; ; page++) {
		const answer = await listPage(ctx, path, qs, page, perPage, options);
		const kept = isPast ? answer.records.filter((record) => !isPast(record)) : answer.records;
		records.push(...kept);
		if (limit !== undefined && records.length >= limit) return records.slice(0, limit);
		if (kept.length < answer.records.length || !answer.hasMore) return records;
	}
}
