import type { IDataObject, ILoadOptionsFunctions, INodeListSearchItems } from 'n8n-workflow';

import { ApiClient, FIRST_PAGE, type PageCursor } from '../api';

const PAGE_SIZE = 50;

/** How a card is named in every picker: its name, else its title, short link or id. */
const cardLabel = (card: IDataObject): string =>
	String(card.name ?? card.title ?? card.short_url ?? card.id);

/** Page, page size (the service may cap it), the first id of the page before (to know a repeat). */
const tokenOf = ({ page, pageSize, previousFirstId }: PageCursor) =>
	[page, pageSize ?? PAGE_SIZE, encodeURIComponent(previousFirstId ?? '')].join(':');

function cursorOf(token: string | undefined): PageCursor {
	const [page, pageSize, previousFirstId] = (token ?? '').split(':');
	const [number, size] = [Number(page), Number(pageSize)];
	if (!Number.isInteger(number) || number < 1) return FIRST_PAGE;
	return {
		page: number,
		pageSize: Number.isInteger(size) && size > 0 ? size : PAGE_SIZE,
		previousFirstId: previousFirstId ? decodeURIComponent(previousFirstId) : undefined,
	};
}

/** Turns a record into a list entry; `siteUrl` (the base URL without /api/v1) roots dashboard links. */
type ToItem = (record: IDataObject, siteUrl: string) => INodeListSearchItems;

/**
 * One page per call while the user scrolls. A filter the service cannot apply (only QR codes have
 * `search`) is applied here to the whole list, not page by page to pages of few or no matches.
 */
const searchList = (path: string, toItem: ToItem) =>
	async function (this: ILoadOptionsFunctions, filter?: string, paginationToken?: string) {
		const needle = (filter ?? '').toLowerCase();
		const filterHere = needle !== '' && path !== '/qr-codes';
		const qs: IDataObject = needle && !filterHere ? { search: filter } : {};
		const client = new ApiClient(this);
		const { records, hasMore, next } = filterHere
			? { records: await client.all(path), hasMore: false, next: FIRST_PAGE }
			: await client.page(path, qs, cursorOf(paginationToken), PAGE_SIZE);
		const { siteUrl } = await client.connection();
		return {
			results: records
				.map((record) => toItem(record, siteUrl))
				.filter((item) => `${item.name} ${String(item.value)}`.toLowerCase().includes(needle)),
			paginationToken: hasMore ? tokenOf(next) : undefined,
		};
	};

/** The action node's list searches, by the names its locators give. */
export const listSearch = {
	searchQrCodes: searchList('/qr-codes', (code, siteUrl) => ({
		name: `${String(code.name)} (${String(code.type)})`,
		value: String(code.id),
		url: `${siteUrl}/qr-codes/${String(code.id)}`,
	})),
	searchCards: searchList('/cards', (card, siteUrl) => ({
		name: cardLabel(card),
		value: String(card.id),
		url: `${siteUrl}/cards/${String(card.id)}`,
	})),
	searchWebhookEndpoints: searchList('/webhooks', (endpoint) => ({
		name: `${String(endpoint.url)} (${((endpoint.events as string[]) ?? []).join(', ')})`,
		value: String(endpoint.id),
	})),
};

/** The polling trigger's card options. */
export const loadOptions = {
	async getCards(this: ILoadOptionsFunctions) {
		const cards = await new ApiClient(this).all('/cards');
		return cards.map((card) => ({ name: cardLabel(card), value: String(card.id) }));
	},
};
