import type { IDataObject } from 'n8n-workflow';

import { countOf } from './records';

/**
 * A 429 always, a 409 to a keyed create in progress (reading "idempotency-409"), a struggling
 * service if safe (readings "retry-after-503" and "html-error-pages": a gateway's 502).
 */
export function isWorthWaiting(status: number, repeatable: boolean, keyed: boolean): boolean {
	if (status === 429) return true;
	if (status === 409) return keyed;
	return repeatable && [500, 502, 503, 504].includes(status);
}

/** Redirects the node follows itself (reading "image-redirect-cdn": an image on a CDN). */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** `Retry-After` in seconds or as an HTTP date (reading "retry-after-http-date"), if not past. */
export function retryAfterSeconds(headers: IDataObject, now = Date.now()): number | undefined {
	const text = String(headers['retry-after'] ?? '').trim();
	if (/^\d+$/.test(text)) return Math.max(1, Number(text));
	const at = Date.parse(text);
	return Number.isFinite(at) && at > now ? Math.max(1, Math.ceil((at - now) / 1000)) : undefined;
}

/** Reading "status-codes-alt": a success without a body (a 204 to a change) reads as `{}`. */
export const successBody = (body: unknown): unknown =>
	body === '' || body === undefined || body === null ? {} : body;

/**
 * The plan as an answer's headers tell it: `X-RateLimit-Remaining` (the reference), and its rate
 * where `X-RateLimit-Limit` is sent (the sandbox; reading "rate-limit-remaining-only" sends none).
 */
export const rateLimitOf = (headers: IDataObject) => ({
	limit: countOf(headers['x-ratelimit-limit']),
	remaining: countOf(headers['x-ratelimit-remaining']),
});
