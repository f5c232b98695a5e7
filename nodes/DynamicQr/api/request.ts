import type {
	IDataObject,
	IHttpRequestMethods,
	IHttpRequestOptions,
	IN8nHttpFullResponse,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { ApiClient } from './client';
import { parseErrorBody } from './edge/errorBody';
import { httpError, networkError, outOfBudgetError, rateLimitError } from './edge/errors';
import { redact } from './edge/records';
import { isWorthWaiting, REDIRECT_STATUSES, retryAfterSeconds, successBody } from './edge/statuses';
import { headerSafeKey } from './headerText';

export interface Call {
	method: IHttpRequestMethods;
	path: string;
	body?: IDataObject | Buffer;
	qs?: IDataObject;
	headers?: IDataObject;
	itemIndex?: number; // put on errors so n8n pairs them with the right item
	idempotencyKey?: string; // sent as `Idempotency-Key` (headerSafeKey); makes retries safe
	binary?: boolean; // answer as a Buffer with its content type instead of parsed JSON
	maxWaitSeconds?: number; // longest total wait on 429 and 5xx answers (default: the run's)
}

export type ApiRequestOptions = Omit<Call, 'method' | 'path'>;

export interface BinaryAnswer {
	data: Buffer;
	contentType: string;
}

export const CREDENTIAL_NAME = 'dynamicQrApi';

const NETWORK_RETRY_DELAYS_MS = [500, 1000, 2000, 4000];
const MAX_BACKOFF_RETRIES = 3; // repeats of an answer without Retry-After (429: the wait alone)
const MAX_REDIRECTS = 5;

function networkCode(error: unknown): string | undefined {
	if (!(error instanceof Error)) return undefined;
	const cause = (error as { cause?: { code?: unknown } }).cause;
	const code = cause?.code ?? (error as { code?: unknown }).code;
	return typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : undefined;
}

/** One call: auth, redirects, waits (429; 5xx and keyed 409s if safe), safe retries, errors. */
export async function apiRequest<T>(client: ApiClient, call: Call): Promise<T> {
	const { baseUrl, apiKey } = await client.connection();
	const { ctx, rate } = client;
	const node = ctx.getNode();
	const { method, path, itemIndex, idempotencyKey } = call;
	const maxWaitSeconds = call.maxWaitSeconds ?? client.maxWaitSeconds;
	// A repeated GET changes nothing; a create carrying its Idempotency-Key is replayed, not doubled.
	const retriesNetworkErrors = method === 'GET' || idempotencyKey !== undefined;
	// Reads, deletes and keyed creates change nothing more when sent twice.
	const repeatable = ['GET', 'HEAD', 'DELETE'].includes(method) || idempotencyKey !== undefined;

	let authenticated = true;
	let request: IHttpRequestOptions = {
		method,
		url: `${baseUrl}/${path.replace(/^\/+/, '')}`,
		qs: call.qs,
		headers: {
			Accept: call.binary ? '*/*' : 'application/json',
			...(idempotencyKey ? { 'Idempotency-Key': headerSafeKey(idempotencyKey) } : {}),
			...call.headers,
		},
		body: call.body,
		json: !call.binary && !Buffer.isBuffer(call.body),
		encoding: call.binary ? 'arraybuffer' : undefined,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
		// Redirects are followed below, where credentials can be kept from other origins
		// (n8n 1.x has no sendCredentialsOnCrossOriginRedirect).
		disableFollowRedirect: true,
	};

	let [waitedSeconds, networkAttempt, backoffAttempt, redirects] = [0, 0, 0, 0];
	const outOfBudget = (waitSeconds?: number, status?: number) =>
		outOfBudgetError(node, client.budgetMs ?? 0, `${method} ${path}`, waitSeconds, status);
	for (;;) {
		// A run with a time budget (a poll) sends nothing it cannot wait for within it.
		const waitedMs = await rate.acquire(client.msLeft());
		if (waitedMs === undefined || client.msLeft() <= 0) {
			if (waitedMs !== undefined) rate.release();
			throw outOfBudget();
		}
		let response: IN8nHttpFullResponse;
		try {
			const left = client.msLeft(); // no request outlasts the run's time budget
			const options = Number.isFinite(left)
				? { ...request, timeout: Math.max(1, Math.ceil(left)) }
				: request;
			response = await (authenticated
				? ctx.helpers.httpRequestWithAuthentication.call(ctx, CREDENTIAL_NAME, options)
				: ctx.helpers.httpRequest(options));
		} catch (error) {
			rate.release();
			const code = networkCode(error);
			const delayMs = NETWORK_RETRY_DELAYS_MS[networkAttempt++];
			if (code && retriesNetworkErrors && delayMs !== undefined && delayMs < client.msLeft()) {
				await sleep(delayMs);
				continue;
			}
			// The budget's own time limit cut the request short.
			if (client.msLeft() <= 0) throw outOfBudget();
			// Never rethrow n8n's wrapper: its cause holds the request, Authorization header included.
			if (code) throw networkError(node, code, `${method} ${path}`, itemIndex);
			const message = redact(String((error as Error).message ?? error), apiKey);
			throw new NodeApiError(node, { message }, { itemIndex });
		}

		const headers = (response.headers ?? {}) as IDataObject;
		const status = response.statusCode;
		rate.release(headers);
		// An error can name the request's query (wherever it travels) and its key (gone off-origin).
		const failure = (waited?: { seconds: number; maxSeconds: number }) => {
			const { url, qs = {}, headers: sent = {} } = request;
			const query = [...new URL(url).searchParams];
			for (const [name, value] of Object.entries(qs)) query.push([name, String(value)]);
			const key = sent['Idempotency-Key'] as string | undefined;
			const asSent = { method, path, query, idempotencyKey: key };
			const body = parseErrorBody(response.body, String(headers['content-type'] ?? ''), apiKey);
			return httpError(node, status, asSent, body, itemIndex, waited);
		};

		if (REDIRECT_STATUSES.has(status) && headers.location !== undefined) {
			if (++redirects > MAX_REDIRECTS) throw failure();
			const url = new URL(String(headers.location), request.url);
			// Once a redirect leaves the first origin, neither credentials nor our headers follow it.
			authenticated &&= url.origin === new URL(request.url).origin;
			const asGet = status === 303 && request.method !== 'HEAD';
			request = {
				...request,
				url: url.toString(),
				qs: undefined,
				method: asGet ? 'GET' : request.method,
				body: asGet ? undefined : request.body,
				headers: authenticated ? request.headers : { Accept: request.headers?.Accept },
			};
			continue;
		}
		if (isWorthWaiting(status, repeatable, idempotencyKey !== undefined)) {
			const hinted = retryAfterSeconds(headers);
			const exhausted =
				hinted === undefined && status !== 429 && backoffAttempt >= MAX_BACKOFF_RETRIES;
			// Without Retry-After: 1, 2, 4, then 8 s (short, growing, never a tight loop).
			const seconds = hinted ?? 2 ** Math.min(backoffAttempt++, 3);
			if (!exhausted && waitedSeconds + seconds <= maxWaitSeconds) {
				// A wait past the budget is pointless (n8n abandons the poll): fail now.
				if (seconds * 1000 >= client.msLeft()) throw outOfBudget(seconds, status);
				waitedSeconds += seconds;
				if (status === 429) rate.hold(seconds);
				await sleep(seconds * 1000);
				continue;
			}
			if (status === 429) throw rateLimitError(node, waitedSeconds, itemIndex);
			if (!exhausted) throw failure({ seconds: waitedSeconds, maxSeconds: maxWaitSeconds });
		}
		// Anything but a 2xx (a 3xx without a Location too) is no answer to read.
		if (status >= 300) throw failure();
		if (!call.binary) return redact(successBody(response.body) as T, apiKey);
		const contentType = String(headers['content-type'] ?? 'application/octet-stream');
		const data = Buffer.from(response.body as Buffer);
		return { data, contentType: contentType.split(';')[0].trim() } satisfies BinaryAnswer as T;
	}
}
