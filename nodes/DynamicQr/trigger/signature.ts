import { createHmac, timingSafeEqual } from 'crypto';

import { decodeSecret } from '../shared/secrets';

/**
 * Standard Webhooks verification (https://www.standardwebhooks.com), symmetric scheme only.
 *
 * - signed content: `webhook-id` + "." + `webhook-timestamp` + "." + the raw request bytes
 * - key: the base64 after the `whsec_` prefix, decoded strictly
 * - `webhook-signature`: space-separated `version,signature` pairs; any `v1` match passes,
 *   other versions (e.g. `v1a`, asymmetric) are ignored
 * - constant-time comparison that never throws on a length mismatch
 * - timestamps more than `toleranceSeconds` (300) in the past or in the future are rejected
 *
 * Pure: nothing here reads the clock, the network or the environment. Nothing throws on
 * untrusted input; every outcome is a `SignatureResult`.
 */

export const DEFAULT_TOLERANCE_SECONDS = 300;

/** Longest accepted `webhook-id`. Ids of this service are `evt_` + a few dozen characters. */
const MAX_ID_LENGTH = 256;
/** More signatures than this in one header is not a rotation but an attempt to burn CPU. */
const MAX_SIGNATURES = 32;
const HMAC_SHA256_BASE64_LENGTH = 44;

export type SignatureFailureReason =
	| 'invalid_secret'
	| 'missing_headers'
	| 'ambiguous_headers'
	| 'invalid_id'
	| 'invalid_timestamp'
	| 'timestamp_too_old'
	| 'timestamp_too_new'
	| 'no_matching_signature';

export type SignatureResult =
	| { valid: true; id: string; timestamp: number }
	| { valid: false; reason: SignatureFailureReason };

export type HeaderValue = string | string[] | undefined | null;
export type HeaderBag = Record<string, HeaderValue>;

function toBytes(body: Buffer | Uint8Array | string): Buffer {
	if (typeof body === 'string') return Buffer.from(body, 'utf8');
	return Buffer.isBuffer(body) ? body : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
}

function signWithKey(key: Buffer, id: string, timestamp: string, body: Buffer): string {
	return createHmac('sha256', key)
		.update(`${id}.${timestamp}.`, 'utf8')
		.update(body)
		.digest('base64');
}

/**
 * The `webhook-signature` value for a payload, as a sender makes it: `v1,` and the signature.
 * Undefined for a secret that is not valid.
 */
export function signPayload(
	secret: unknown,
	id: string,
	timestamp: number,
	body: string,
): string | undefined {
	const key = decodeSecret(secret);
	if (!key) return undefined;
	return `v1,${signWithKey(key, id, String(timestamp), toBytes(body))}`;
}

/**
 * Reads one header case-insensitively. Undefined when absent; null when it is ambiguous
 * (repeated under different spellings with different values, or given as a list of values).
 */
function readHeader(headers: HeaderBag, name: string): string | undefined | null {
	let found: string | undefined;
	for (const key of Object.keys(headers)) {
		if (key.toLowerCase() !== name) continue;
		const value = headers[key];
		if (value === undefined || value === null) continue;
		if (Array.isArray(value)) {
			if (value.length !== 1 || typeof value[0] !== 'string') return null;
		}
		const text = Array.isArray(value) ? value[0] : value;
		if (typeof text !== 'string') return null;
		if (found !== undefined && found !== text) return null;
		found = text;
	}
	return found;
}

/** Equal-length check first (the expected length is public), then a constant-time compare. */
function constantTimeEqual(a: string, b: string): boolean {
	const left = Buffer.from(a, 'utf8');
	const right = Buffer.from(b, 'utf8');
	if (left.length !== right.length) return false;
	return timingSafeEqual(left, right);
}

/**
 * Verifies one delivery. `headers` may use any header-name case (Node lowercases them;
 * a plain object from elsewhere may not). `rawBody` must be the bytes exactly as received.
 */
export function verifySignature(
	secret: unknown,
	headers: HeaderBag | undefined | null,
	rawBody: Buffer | Uint8Array | string,
	nowSeconds: number,
	toleranceSeconds: number = DEFAULT_TOLERANCE_SECONDS,
): SignatureResult {
	const key = decodeSecret(secret);
	if (!key) return { valid: false, reason: 'invalid_secret' };
	if (!headers || typeof headers !== 'object') return { valid: false, reason: 'missing_headers' };

	const id = readHeader(headers, 'webhook-id');
	const timestamp = readHeader(headers, 'webhook-timestamp');
	const signatures = readHeader(headers, 'webhook-signature');
	if (id === null || timestamp === null || signatures === null) {
		return { valid: false, reason: 'ambiguous_headers' };
	}
	if (!id || !timestamp || !signatures) return { valid: false, reason: 'missing_headers' };

	// Control characters and whitespace never belong in an id (the spec allows any other text).
	if (id.length > MAX_ID_LENGTH || !/^[\x21-\x7e]+$/.test(id)) {
		return { valid: false, reason: 'invalid_id' };
	}
	// Canonical decimal seconds only: no sign, no leading zeros, no fraction, no suffix.
	if (!/^(?:0|[1-9][0-9]{0,14})$/.test(timestamp)) {
		return { valid: false, reason: 'invalid_timestamp' };
	}
	const seconds = Number(timestamp);
	if (!Number.isFinite(nowSeconds)) return { valid: false, reason: 'invalid_timestamp' };
	const now = Math.floor(nowSeconds);
	if (now - seconds > toleranceSeconds) return { valid: false, reason: 'timestamp_too_old' };
	if (seconds - now > toleranceSeconds) return { valid: false, reason: 'timestamp_too_new' };

	const expected = signWithKey(key, id, timestamp, toBytes(rawBody));
	let matched = false;
	let checked = 0;
	for (const entry of signatures.split(' ')) {
		if (checked >= MAX_SIGNATURES) break;
		checked++;
		const comma = entry.indexOf(',');
		if (comma < 0) continue;
		if (entry.slice(0, comma) !== 'v1') continue;
		const candidate = entry.slice(comma + 1);
		if (candidate.length !== HMAC_SHA256_BASE64_LENGTH) continue;
		// No early exit: every v1 entry is compared, so timing does not reveal which matched.
		if (constantTimeEqual(candidate, expected)) matched = true;
	}
	if (!matched) return { valid: false, reason: 'no_matching_signature' };
	return { valid: true, id, timestamp: seconds };
}

/** Human-readable text for a failure reason; never contains the secret or a signature. */
export function describeFailure(reason: SignatureFailureReason): string {
	switch (reason) {
		case 'invalid_secret':
			return 'the stored signing secret is missing or is not a valid "whsec_" secret';
		case 'missing_headers':
			return 'the webhook-id, webhook-timestamp or webhook-signature header is missing';
		case 'ambiguous_headers':
			return 'a webhook-* header was sent more than once with different values';
		case 'invalid_id':
			return 'the webhook-id header is not a valid id';
		case 'invalid_timestamp':
			return 'the webhook-timestamp header is not a Unix time in seconds';
		case 'timestamp_too_old':
			return 'the webhook-timestamp is more than 300 seconds old (possible replay)';
		case 'timestamp_too_new':
			return 'the webhook-timestamp is more than 300 seconds in the future';
		case 'no_matching_signature':
			return 'no v1 signature in webhook-signature matches the body';
	}
}
