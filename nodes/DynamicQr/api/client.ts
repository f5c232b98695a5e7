import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	ILoadOptionsFunctions,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';

import { baseUrlOf, CREDENTIAL_NAME, siteUrlOf } from './baseUrl';
import { sendWithFallbacks } from './edge/fallbacks';
import type { PageCursor } from './edge/lists';
import { createdAtOrBefore, unwrap } from './edge/records';
import { atLeast, Flight } from './inflight';
import { Pace } from './pacing';
import type { AllItemsOptions, PageOptions } from './paging';
import { allItems, listPage } from './paging';
import type { ApiRequestOptions } from './request';

export type ApiContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

/** What the credential gives a run; the key is kept only to redact it from answers and errors. */
export interface Connection {
	baseUrl: string;
	/** The service's site, where dashboard links point. */
	siteUrl: string;
	apiKey: string;
}

export interface ClientSettings {
	/** Concurrent Requests: the most requests in flight (inflight.ts has the default). */
	concurrency?: number;
	/** Max Rate Limit Wait: the longest total wait on 429 answers per request. */
	maxWaitSeconds?: number;
	/** The run's time budget in ms from now (a poll's): no request starts, no wait ends after it. */
	budgetMs?: number;
}

export const DEFAULT_MAX_WAIT_SECONDS = 300;

/**
 * One run's connection to the service: the action node's run (all its items), one trigger hook,
 * delivery or poll, one list search. It owns what that run knows about the service: the
 * credential (read once: n8n decrypts, and may evaluate, it on every read), the requests in
 * flight, the pace and the wait budget. (The form of `since` the service takes outlives the run:
 * edge/fallbacks.ts.) The next run makes a new one.
 */
export class ApiClient {
	readonly flight: Flight;
	readonly pace = new Pace();
	readonly maxWaitSeconds: number;
	readonly budgetMs?: number;
	/** When the budget runs out (Date.now() ms); Infinity without a budget. */
	private readonly deadline: number;
	private connecting?: Promise<Connection>;

	constructor(
		readonly ctx: ApiContext,
		settings: ClientSettings = {},
	) {
		this.flight = new Flight(settings.concurrency);
		this.maxWaitSeconds = atLeast(settings.maxWaitSeconds, 0) ?? DEFAULT_MAX_WAIT_SECONDS;
		this.budgetMs = atLeast(settings.budgetMs, Number.MIN_VALUE); // above 0
		this.deadline = Date.now() + (this.budgetMs ?? Infinity);
	}

	/** Milliseconds left of the time budget (Infinity without one; 0 or less once it is spent). */
	msLeft(): number {
		return this.deadline - Date.now();
	}

	/** The credential's base URL, site and key; a failed read is tried again on the next call. */
	connection(): Promise<Connection> {
		if (!this.connecting) {
			this.connecting = (async () => {
				const credentials = await this.ctx.getCredentials<IDataObject>(CREDENTIAL_NAME);
				const baseUrl = baseUrlOf(this.ctx.getNode(), credentials);
				const apiKey = typeof credentials.apiKey === 'string' ? credentials.apiKey : '';
				return { baseUrl, siteUrl: siteUrlOf(baseUrl), apiKey };
			})();
			this.connecting.catch(() => (this.connecting = undefined));
		}
		return this.connecting;
	}

	/** One call to the API as the reference documents it (request.ts; readings: edge/fallbacks.ts). */
	request<T = IDataObject>(method: IHttpRequestMethods, path: string, options?: ApiRequestOptions) {
		return sendWithFallbacks<T>(this, { ...options, method, path });
	}

	/** A single record, without the `data` envelope. */
	async getRecord(path: string, itemIndex?: number): Promise<IDataObject> {
		return unwrap(await this.request('GET', path, { itemIndex }));
	}

	/** Every record of a list, or the first `limit` (paging.ts). */
	all(path: string, qs?: IDataObject, limit?: number, options?: AllItemsOptions) {
		return allItems(this, { path, qs, limit, ...options });
	}

	page(path: string, qs: IDataObject, cursor: PageCursor, perPage: number, options?: PageOptions) {
		return listPage(this, path, qs, cursor, perPage, options);
	}

	/** The records of a newest-first list created after `sinceMs`, cut there whatever `since` did. */
	since(path: string, sinceMs: number, limit?: number, options?: AllItemsOptions) {
		const qs = { since: new Date(sinceMs).toISOString() };
		return allItems(this, { ...options, path, qs, limit, isPast: createdAtOrBefore(sinceMs) });
	}
}
