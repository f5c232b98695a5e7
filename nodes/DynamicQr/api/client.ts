import { NodeOperationError, type IAllExecuteFunctions, type IDataObject } from 'n8n-workflow';

import { unreadableAnswerError } from './edge/errors';
import { sendWithFallbacks } from './edge/fallbacks';
import { pageOf, type PageCursor } from './edge/lists';
import { atLeast, createdAtOrBefore, unwrap } from './edge/records';
import { readList, type ListRead } from './paging';
import { RateModel, type PlanShare } from './rate';
import { CREDENTIAL_NAME, type ApiRequestOptions, type Call } from './request';

export interface ClientSettings {
	concurrency?: number; // Concurrent Requests (rate.ts has the default)
	maxWaitSeconds?: number; // Max Rate Limit Wait, per request
	budgetMs?: number; // a poll's, in ms from now: no request starts, no wait ends after it
	pace?: PlanShare; // the plan's share kept by spacing, at the rate known as each request leaves
}

type ReadOptions = Pick<ListRead, 'itemIndex' | 'isPast'>;

/** The credential, if an API root ending in /api/v1; its key only to redact it from answers. */
async function readConnection(ctx: IAllExecuteFunctions) {
	const credentials = await ctx.getCredentials<IDataObject>(CREDENTIAL_NAME);
	const baseUrl = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/.+\/api\/v1$/.test(baseUrl)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Base URL "${baseUrl}" of the Dynamic QR API credential is not an API root`,
			{
				description:
					'Set the Base URL to the root of the API, ending in /api/v1, for example https://qr.example.com/api/v1.',
			},
		);
	}
	const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
	return { baseUrl, siteUrl: baseUrl.replace(/\/api\/v1$/, ''), apiKey };
}

export const DEFAULT_MAX_WAIT_SECONDS = 300;

/** One run's connection to the service; the credential is read once (n8n decrypts every read). */
export class ApiClient {
	readonly rate: RateModel;
	readonly maxWaitSeconds: number;
	readonly budgetMs?: number;
	private readonly deadline: number;
	private connecting?: ReturnType<typeof readConnection>;

	constructor(
		readonly ctx: IAllExecuteFunctions,
		settings: ClientSettings = {},
	) {
		this.rate = new RateModel(settings.concurrency, settings.pace);
		this.maxWaitSeconds = atLeast(settings.maxWaitSeconds, 0) ?? DEFAULT_MAX_WAIT_SECONDS;
		this.budgetMs = atLeast(settings.budgetMs, Number.MIN_VALUE); // above 0
		this.deadline = Date.now() + (this.budgetMs ?? Infinity);
	}

	/** Milliseconds left of the time budget (Infinity without one). */
	msLeft(): number {
		return this.deadline - Date.now();
	}

	/** The credential's base URL, site and key; a failed read is tried again on the next call. */
	connection() {
		if (!this.connecting) {
			this.connecting = readConnection(this.ctx);
			this.connecting.catch(() => (this.connecting = undefined));
		}
		return this.connecting;
	}

	/** One call to the API (request.ts), through the fallbacks for other readings. */
	request<T = IDataObject>(method: Call['method'], path: string, options?: ApiRequestOptions) {
		return sendWithFallbacks<T>(this, { ...options, method, path });
	}

	/** A single record, without the `data` envelope. */
	async getRecord(path: string, itemIndex?: number): Promise<IDataObject> {
		return unwrap(await this.request('GET', path, { itemIndex }));
	}

	/** A list read by paging.ts: whole, or within a poll's share and from where the last read ended. */
	read(read: ListRead) {
		return readList(this, read);
	}

	async all(path: string, qs?: IDataObject, limit?: number, options?: ReadOptions) {
		return (await readList(this, { ...options, path, qs, limit })).records;
	}

	/** One page, asked for with `perPage` (the same for every page of a list: pages count in it). */
	async page(path: string, qs: IDataObject, at: PageCursor, perPage: number, itemIndex?: number) {
		const query = { ...qs, page: at.page, per_page: perPage };
		const answer = await this.request('GET', path, { itemIndex, qs: query });
		const page = pageOf(answer, at, perPage);
		if (page) return page;
		const unread: [string, unknown, string] = [`the list ${path}`, answer, 'its records in a list'];
		throw unreadableAnswerError(this.ctx.getNode(), unread, itemIndex);
	}

	/** A newest-first list's records after `sinceMs` (all without), cut there whatever `since` did. */
	since(path: string, sinceMs?: number, limit?: number, options?: ReadOptions) {
		if (sinceMs === undefined) return this.all(path, {}, limit, options);
		const qs = { since: new Date(sinceMs).toISOString() };
		return this.all(path, qs, limit, { ...options, isPast: createdAtOrBefore(sinceMs) });
	}
}
