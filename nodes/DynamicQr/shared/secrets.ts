import { looksLikeSecret, mapLeaves, SECRET_FIELDS, SECRET_PREFIX, secretCandidates } from '../api';

const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard padded base64 (RFC 4648 §4) only, canonical (re-encoding gives the same text). */
export function decodeBase64Strict(text: string): Buffer | undefined {
	const bytes = BASE64.test(text) ? Buffer.from(text, 'base64') : undefined;
	return bytes?.length && bytes.toString('base64') === text ? bytes : undefined;
}

/** A secret's HMAC key: the strict base64 after `whsec_` or, as the references allow, without it. */
export function decodeSecret(secret: unknown): Buffer | undefined {
	if (typeof secret !== 'string') return undefined;
	const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
	return decodeBase64Strict(encoded);
}

export const isValidSecret = (secret: unknown) => decodeSecret(secret) !== undefined;

/** The signing secret in the answer that registered a webhook endpoint: the first usable one. */
export const webhookSecretOf = (answer: unknown) => secretCandidates(answer).find(isValidSecret);

/** A copy with every `whsec_` value and every secret field's value, wherever it sits, masked. */
export const maskSigningSecrets = <T>(value: T, mask: string): T =>
	mapLeaves(value, (leaf, field = '') => {
		const named = SECRET_FIELDS.includes(field) && typeof leaf === 'string' && leaf !== '';
		return named || looksLikeSecret(leaf) ? mask : leaf;
	});
