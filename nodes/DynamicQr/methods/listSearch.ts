import type {
	IDataObject,
	ILoadOptionsFunctions,
	INodeListSearchItems,
	INodeListSearchResult,
} from 'n8n-workflow';

import { cardLabel, getSiteUrl, listPage } from '../api';

const PAGE_SIZE = 50;

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
	const qs: IDataObject = filter && serverSearch ? { search: filter } : {};
	const { records, hasMore } = await listPage(ctx, path, qs, page, PAGE_SIZE);
	const siteUrl = await getSiteUrl(ctx);
	const items = records.map((record) => toItem(record, siteUrl));
	const needle = (filter ?? '').toLowerCase();
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
