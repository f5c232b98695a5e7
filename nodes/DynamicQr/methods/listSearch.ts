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

/** Dashboard address of a record: the site root (base URL without /api/v1) + /<segment>/<id>. */
async function dashboardUrl(ctx: ILoadOptionsFunctions, segment: string, id: unknown) {
	return `${(await getBaseUrl(ctx)).replace(/\/api\/v1$/, '')}/${segment}/${String(id)}`;
}

async function searchList(
	ctx: ILoadOptionsFunctions,
	path: string,
	toItem: (record: IDataObject) => Promise<INodeListSearchItems>,
	filter?: string,
	paginationToken?: string,
	serverSearch = false,
): Promise<INodeListSearchResult> {
	const page = Number(paginationToken ?? 1);
	const qs: IDataObject = { page, per_page: PAGE_SIZE };
	if (filter && serverSearch) qs.search = filter;
	const answer = await apiRequest<ListAnswer>(ctx, 'GET', path, { qs });
	const items = await Promise.all((answer.data ?? []).map(toItem));
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
		async (code) => ({
			name: `${String(code.name)} (${String(code.type)})`,
			value: String(code.id),
			url: await dashboardUrl(this, 'qr-codes', code.id),
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
		async (card) => ({
			name: String(card.name ?? card.title ?? card.short_url ?? card.id),
			value: String(card.id),
			url: await dashboardUrl(this, 'cards', card.id),
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
		async (endpoint) => ({
			name: `${String(endpoint.url)} (${((endpoint.events as string[]) ?? []).join(', ')})`,
			value: String(endpoint.id),
		}),
		filter,
		paginationToken,
	);
}
