import type {
	IDataObject,
	IExecuteFunctions,
	IHookFunctions,
	IHttpRequestMethods,
	IHttpRequestOptions,
	ILoadOptionsFunctions,
	IN8nHttpFullResponse,
	IPollFunctions,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeApiError, sleep } from 'n8n-workflow';

import type { ApiErrorBody } from './errors';
import { httpError, networkError, rateLimitError } from './errors';
import { CREDENTIAL_NAME, getBaseUrl } from './baseUrl';
import { noteRateLimit, waitForSlot } from './pacing';

export type ApiContext =
	| IExecuteFunctions
	| IHookFunctions
	| ILoadOptionsFunctions
	| IPollFunctions
	| IWebhookFunctions;

export interface ApiRequestOptions {
	body?: IDataObject | Buffer;
	qs?: IDataObject;
	headers?: IDataObject;
	/** Put on errors so n8n shows (and Continue On Fail pairs) them with the right item. */
	itemIndex?: number;
	/** Sent as `Idempotency-Key`; also makes network errors safe to retry. */
	idempotencyKey?: string;
	/** Answer as a Buffer with its content type instead of parsed JSON. */
	binary?: boolean;
	/** Longest total time spent waiting out 429 answers before giving up. */
	maxWaitSeconds?: number;
}

export interface BinaryAnswer {
	data: Buffer;
	contentType: string;
}

export const DEFAULT_MAX_WAIT_SECONDS = 300;
const NETWORK_RETRY_DELAYS_MS = [500, 1000, 2000, 4000];

function parseErrorBody(body: unknown): ApiErrorBody {
	const text = Buffer.isBuffer(body) ? body.toString('utf8') : body;
	if (typeof text !== 'string')
		return text && typeof text === 'object' ? (text as ApiErrorBody) : {};
	try {
		return parseErrorBody(JSON.parse(text));
	} catch {
		return { message: text.slice(0, 200) };
	}
}

/** The key must never reach an output: drop it wherever the API might echo it back. */
function redact<T>(value: T, secret: string): T {
	if (!secret) return value;
	if (typeof value === 'string') {
		return (value.includes(secret) ? value.split(secret).join('[redacted]') : value) as T;
	}
	if (Array.isArray(value)) return value.map((entry) => redact(entry, secret)) as T;
	if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
		const copy: IDataObject = {};
		for (const [key, entry] of Object.entries(value)) copy[key] = redact(entry, secret);
		return copy as T;
	}
	return value;
}

function isNetworkFailure(error: unknown): string | undefined {
	if (!(error instanceof Error)) return undefined;
	const cause = (error as { cause?: { code?: unknown } }).cause;
	const code = cause?.code ?? (error as { code?: unknown }).code;
	return typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : undefined;
}

/**
 * One call to the API. Owns authentication (through n8n's credential helper), the base URL,
 * 429 waits, safe retries of network errors, rate-limit pacing and error texts.
 */
export async function apiRequest<T = IDataObject>(
	ctx: ApiContext,
	method: IHttpRequestMethods,
	path: string,
	options: ApiRequestOptions = {},
): Promise<T> {
	const baseUrl = await getBaseUrl(ctx);
	const { apiKey } = await ctx.getCredentials<{ apiKey?: string }>(CREDENTIAL_NAME);
	const node = ctx.getNode();
	const { itemIndex, idempotencyKey } = options;
	const maxWaitSeconds = options.maxWaitSeconds ?? maxWaits.get(ctx) ?? DEFAULT_MAX_WAIT_SECONDS;
	// A repeated GET changes nothing; a create carrying its Idempotency-Key is replayed, not doubled.
	const retriesNetworkErrors = method === 'GET' || idempotencyKey !== undefined;

	const request: IHttpRequestOptions = {
		method,
		url: `${baseUrl}/${path.replace(/^\/+/, '')}`,
		qs: options.qs,
		headers: {
			Accept: options.binary ? '*/*' : 'application/json',
			...(idempotencyKey ? { 'Idempotency-Key': idempotencyKey } : {}),
			...options.headers,
		},
		body: options.body,
		json: !options.binary && !Buffer.isBuffer(options.body),
		encoding: options.binary ? 'arraybuffer' : undefined,
		returnFullResponse: true,
		ignoreHttpStatusErrors: true,
	};

	let waitedSeconds = 0;
	let networkAttempt = 0;
	for (;;) {
		await waitForSlot(ctx);
		let response: IN8nHttpFullResponse;
		try {
			response = (await ctx.helpers.httpRequestWithAuthentication.call(
				ctx,
				CREDENTIAL_NAME,
				request,
			)) as IN8nHttpFullResponse;
		} catch (error) {
			const code = isNetworkFailure(error);
			if (code && retriesNetworkErrors && networkAttempt < NETWORK_RETRY_DELAYS_MS.length) {
				await sleep(NETWORK_RETRY_DELAYS_MS[networkAttempt++]);
				continue;
			}
			// Never rethrow n8n's own wrapper: its cause holds the request, Authorization header included.
			if (code) throw networkError(node, code, method, path, itemIndex);
			throw new NodeApiError(
				node,
				{ message: redact(String((error as Error).message ?? error), apiKey ?? '') },
				{ itemIndex },
			);
		}

		const headers = (response.headers ?? {}) as IDataObject;
		noteRateLimit(ctx, headers);
		const status = response.statusCode;

		if (status === 429) {
			const retryAfter = Math.max(1, Number(headers['retry-after']) || 1);
			if (waitedSeconds + retryAfter > maxWaitSeconds) {
				throw rateLimitError(node, waitedSeconds, itemIndex);
			}
			waitedSeconds += retryAfter;
			await sleep(retryAfter * 1000);
			continue;
		}
		if (status >= 400) {
			throw httpError(
				node,
				status,
				method,
				path,
				redact(parseErrorBody(response.body), apiKey ?? ''),
				itemIndex,
			);
		}
		if (options.binary) {
			const answer: BinaryAnswer = {
				data: Buffer.from(response.body as Buffer),
				contentType: String(headers['content-type'] ?? 'application/octet-stream')
					.split(';')[0]
					.trim(),
			};
			return answer as T;
		}
		return redact((response.body === '' ? {} : response.body) as T, apiKey ?? '');
	}
}

const maxWaits = new WeakMap<object, number>();

/** The node-wide "Max Rate Limit Wait" for every request made with this context. */
export function setMaxRateLimitWait(ctx: ApiContext, seconds: number): void {
	if (Number.isFinite(seconds) && seconds >= 0) maxWaits.set(ctx, seconds);
}
