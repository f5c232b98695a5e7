import { createHmac, timingSafeEqual } from 'crypto';

import { decodeSecret } from '../shared/secrets';

/** Standard Webhooks `v1` verification (docs/triggers.md#verification): pure, never throws. */

const TOLERANCE_SECONDS = 300;
/** Longest accepted `webhook-id`. Ids of this service are `evt_` + a few dozen characters. */
const MAX_ID_LENGTH = 256;
/** More signatures than this in one header is not a rotation but an attempt to burn CPU. */
const MAX_SIGNATURES = 32;

/** Each failure in words, for the debug log; none contains the secret or a signature. */
export const FAILURES = {
	invalid_secret: 'the stored signing secret is missing or is not a valid "whsec_" secret',
	missing_headers: 'the webhook-id, webhook-timestamp or webhook-signature header is missing',
	ambiguous_headers: 'a webhook-* header was sent more than once with different values',
	invalid_id: 'the webhook-id header is not a valid id',
	invalid_timestamp: 'the webhook-timestamp header is not a Unix time in seconds',
	timestamp_too_old: 'the webhook-timestamp is more than 300 seconds old (possible replay)',
	timestamp_too_new: 'the webhook-timestamp is more than 300 seconds in the future',
	no_matching_signature: 'no v1 signature in webhook-signature matches the body',
};

type FailureReason = keyof typeof FAILURES;
type HeaderBag = Record<string, string | string[] | undefined | null>;
type Body = Buffer | Uint8Array | string;

/** HMAC-SHA256 over `id.timestamp.body` in base64 (a string body as its UTF-8 bytes). */
const signWithKey = (key: Buffer, id: string, timestamp: string, body: Body) =>
	createHmac('sha256', key).update(`${id}.${timestamp}.`, 'utf8').update(body).digest('base64');

/** The `webhook-signature` value a sender makes for a payload; undefined for an invalid secret. */
export function signPayload(secret: unknown, id: string, timestamp: number, body: string) {
	const key = decodeSecret(secret);
	return key ? `v1,${signWithKey(key, id, String(timestamp), body)}` : undefined;
}

/** One header, any case: undefined when absent, null when ambiguous (values differ, or a list). */
function readHeader(headers: HeaderBag, name: string): string | undefined | null {
	let found: string | undefined;
	for (const [key, value] of Object.entries(headers)) {
		if (key.toLowerCase() !== name || value === undefined || value === null) continue;
		const text = Array.isArray(value) && value.length === 1 ? value[0] : value;
		if (typeof text !== 'string' || (found !== undefined && found !== text)) return null;
		found = text;
	}
	return found;
}

/** `rawBody` must be the bytes exactly as received. */
export function verifySignature(
	secret: unknown,
	headers: HeaderBag | undefined | null,
	rawBody: Body,
	nowSeconds: number,
): { valid: true; id: string; timestamp: number } | { valid: false; reason: FailureReason } {
	const fail = (reason: FailureReason) => ({ valid: false, reason }) as const;
	const key = decodeSecret(secret);
	if (!key) return fail('invalid_secret');
	if (!headers || typeof headers !== 'object') return fail('missing_headers');
	const id = readHeader(headers, 'webhook-id');
	const timestamp = readHeader(headers, 'webhook-timestamp');
	const signatures = readHeader(headers, 'webhook-signature');
	if (id === null || timestamp === null || signatures === null) return fail('ambiguous_headers');
	if (!id || !timestamp || !signatures) return fail('missing_headers');
	// Control characters and whitespace never belong in an id (the spec allows any other text).
	if (id.length > MAX_ID_LENGTH || !/^[\x21-\x7e]+$/.test(id)) return fail('invalid_id');
	// Canonical decimal seconds only: no sign, no leading zeros, no fraction, no suffix.
	if (!/^(?:0|[1-9][0-9]{0,14})$/.test(timestamp) || !Number.isFinite(nowSeconds))
		return fail('invalid_timestamp');
	const seconds = Number(timestamp);
	const now = Math.floor(nowSeconds);
	if (now - seconds > TOLERANCE_SECONDS) return fail('timestamp_too_old');
	if (seconds - now > TOLERANCE_SECONDS) return fail('timestamp_too_new');

	const expected = Buffer.from(`v1,${signWithKey(key, id, timestamp, rawBody)}`);
	let matched = false;
	for (const entry of signatures.split(' ').slice(0, MAX_SIGNATURES)) {
		// No early exit, and a constant-time compare (the length is public): timing reveals nothing.
		const given = Buffer.from(entry);
		if (given.length === expected.length && timingSafeEqual(given, expected)) matched = true;
	}
	return matched ? { valid: true, id, timestamp: seconds } : fail('no_matching_signature');
}
