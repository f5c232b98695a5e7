import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { apiRequest, getBaseUrl } from '../transport';

const PAGE_SIZE = 50;

interface ListAnswer {
	data?: IDataObject[];
	meta?: { current_page?: number; last_page?: number };
}

/** Turns a record into a list entry; `siteUrl` (the base URL without /api/v1) roots dashboard links. */
type ToItem = (record: IDataObject, siteUrl: string) => INodeListSearchItems;

async function searchList(
	ctx: ILoadOptionsFunctions,
	path: string,
	toItem: ToItem,
	filter?: string,
	paginationToken?: string,
	serverSearch = false,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, per_page: PAGE_SIZE };
	if (filter && serverSearch) qs.search = filter;
	const answer = await apiRequest<ListAnswer>(ctx, 'GET', path, { qs });
	const siteUrl = (await getBaseUrl(ctx)).replace(/\/api\/v1$/, '');
	const items = (answer.data ?? []).map((record) => toItem(record, siteUrl));
	const needle = (filter ?? '').toLowerCase();
	const hasMore = (answer.meta?.last_page ?? page) > page;
	return {
		results: needle
			? items.filter((item) => `${item.name} ${String(item.value)}`.toLowerCase().includes(needle))
			: items,
		paginationToken: hasMore ? String(page + 1) : undefined,
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
			name: String(card.name ?? card.title ?? card.short_url ?? card.id),
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
