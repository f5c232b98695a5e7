import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequestAllItems, cardLabel, getSiteUrl, listPage, FIRST_PAGE } from '../api';
import type { PageCursor } from '../api';

const PAGE_SIZE = 50;

/**
 * The editor hands back the token of the page before: the next page's number, followed by
 * `:` and the service's page size when that is not the one asked for (a service may cap it),
 * so that the count of records before the page is still known.
 */
function tokenOf(cursor: PageCursor): string {
	const { page, pageSize } = cursor;
	return pageSize === undefined || pageSize === PAGE_SIZE ? String(page) : `${page}:${pageSize}`;
}

function cursorOf(token: string | undefined): PageCursor {
	const [page, pageSize] = (token ?? '').split(':').map(Number);
	if (!Number.isInteger(page) || page < 1) return FIRST_PAGE;
	return { page, pageSize: Number.isInteger(pageSize) && pageSize > 0 ? pageSize : PAGE_SIZE };
}

/** Turns a record into a list entry; `siteUrl` (the base URL without /api/v1) roots dashboard links. */
type ToItem = (record: IDataObject, siteUrl: string) => INodeListSearchItems;

/**
 * One page of the list per call while the user scrolls. A filter the service cannot apply
 * (only QR codes have `search`) is applied here, to the whole list at once: read page after
 * page it would leave the user scrolling through pages of few or no matches.
 */
async function searchList(
	ctx: ILoadOptionsFunctions,
	path: string,
	toItem: ToItem,
	filter?: string,
	paginationToken?: string,
	serverSearch = false,
): Promise<INodeListSearchResult> {
	const needle = (filter ?? '').toLowerCase();
	const filterHere = needle !== '' && !serverSearch;
	const qs: IDataObject = needle && serverSearch ? { search: filter } : {};
	const { records, hasMore, next } = filterHere
		? { records: await apiRequestAllItems(ctx, path), hasMore: false, next: FIRST_PAGE }
		: await listPage(ctx, path, qs, cursorOf(paginationToken), PAGE_SIZE);
	const siteUrl = await getSiteUrl(ctx);
	const items = records.map((record) => toItem(record, siteUrl));
	return {
		results: needle
			? items.filter((item) => `${item.name} ${String(item.value)}`.toLowerCase().includes(needle))
			: items,
		paginationToken: hasMore ? tokenOf(next) : undefined,
	};
}

export async function searchQrCodes(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/qr-codes',
		(code, siteUrl) => ({
			name: `${String(code.name)} (${String(code.type)})`,
			value: String(code.id),
			url: `${siteUrl}/qr-codes/${String(code.id)}`,
		}),
		filter,
		paginationToken,
		true,
	);
}

export async function searchCards(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/cards',
		(card, siteUrl) => ({
			name: cardLabel(card),
			value: String(card.id),
			url: `${siteUrl}/cards/${String(card.id)}`,
		}),
		filter,
		paginationToken,
	);
}

export async function searchWebhookEndpoints(
	this: ILoadOptionsFunctions,
	filter?: string,
	paginationToken?: string,
): Promise<INodeListSearchResult> {
	return await searchList(
		this,
		'/webhooks',
		(endpoint) => ({
			name: `${String(endpoint.url)} (${((endpoint.events as string[]) ?? []).join(', ')})`,
			value: String(endpoint.id),
		}),
		filter,
		paginationToken,
	);
}
