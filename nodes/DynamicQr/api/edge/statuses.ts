import type { IDataObject } from 'n8n-workflow';

/**
 * What the service's statuses and headers ask of a request: gone, wait, follow elsewhere, or
 * done. The reference shows 401, 403, 404, 422 and 429 (with `Retry-After` in seconds); the rest
 * are readings.
 */

/** Statuses that say a record is not there (reading "gone-410": 410 for one deleted earlier). */
export const isGoneStatus = (status: number): boolean => status === 404 || status === 410;

/**
 * Server errors worth waiting out: the service or a gateway in front of it is struggling
 * (reading "retry-after-503", and a gateway's 502 in reading "html-error-pages").
 */
const RETRYABLE_SERVER_STATUSES = new Set([500, 502, 503, 504]);

/**
 * Whether an answer means "come back later" for this request: a 429 always (the request was not
 * processed), a 409 to a keyed create still in progress (reading "idempotency-409"), a server
 * error to a request safe to repeat.
 */
export function isWorthWaiting(status: number, repeatable: boolean, keyed: boolean): boolean {
	if (status === 429) return true;
	if (status === 409) return keyed;
	return repeatable && RETRYABLE_SERVER_STATUSES.has(status);
}

/** Redirects the node follows itself (reading "image-redirect-cdn": an image on a CDN). */
export const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

/** Waits without Retry-After (and after a date already past): short, growing, never a tight loop. */
const BACKOFF_SECONDS = [1, 2, 4, 8];

export const backoffSeconds = (attempt: number): number =>
	BACKOFF_SECONDS[Math.min(attempt, BACKOFF_SECONDS.length - 1)];

/**
 * Seconds to wait for a `Retry-After` header: seconds as the reference shows, or an HTTP date as
 * RFC 9110 allows (reading "retry-after-http-date"). Undefined when the header is absent,
 * unparsable or names a moment already past, so the caller backs off instead of retrying at once.
 */
export function retryAfterSeconds(headers: IDataObject, now = Date.now()): number | undefined {
	const raw = headers['retry-after'];
	if (raw === undefined || raw === null) return undefined;
	const text = String(raw).trim();
	if (/^\d+$/.test(text)) return Math.max(1, Number(text));
	const at = Date.parse(text);
	if (!Number.isFinite(at) || at <= now) return undefined;
	return Math.max(1, Math.ceil((at - now) / 1000));
}

/**
 * A success's body: the answer, or an empty object for a success without one (reading
 * "status-codes-alt": creates 200, deletes 200 with a body, changes 204 with none).
 */
export const successBody = (body: unknown): unknown =>
	body === '' || body === undefined || body === null ? {} : body;
