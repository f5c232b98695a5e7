import type { IDataObject } from 'n8n-workflow';

/**
 * Ids are 12 characters, the same ids that appear in dashboard URLs. The reference does not say
 * which characters, so the URL-safe alphabet is accepted: letters, digits, `-` and `_`.
 */
export const ID_CHARACTERS = '[A-Za-z0-9_-]{12}';
export const ID_PATTERN = `^${ID_CHARACTERS}$`;
/** How an ID is described in validation messages. */
export const ID_RULE = '12 letters and digits ("-" and "_" count too)';

/** Whether a value is an object with keys (not a list, not null). */
export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export function asObject(value: unknown): IDataObject | undefined {
	return isObject(value) ? value : undefined;
}

/**
 * The value an object holds itself under `key`: a key from data ("constructor", "__proto__")
 * never finds what every object inherits.
 */
export const ownValue = (object: Record<string, unknown>, key: string): unknown =>
	Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/** Single-record answers wrap the record in `data`. */
export const unwrap = (answer: IDataObject): IDataObject => asObject(answer.data) ?? answer;

/** How a card is named in every picker: its name, else its title, short link or id. */
export const cardLabel = (card: IDataObject): string =>
	String(card.name ?? card.title ?? card.short_url ?? card.id);

/** Signing secrets begin with `whsec_`. */
const SECRET_PREFIX = 'whsec_';
/** Field names a service may give the signing secret. */
const SECRET_FIELDS = ['secret', 'signing_secret', 'signingSecret', 'webhook_secret'];

const looksLikeSecret = (value: unknown): value is string =>
	typeof value === 'string' && value.startsWith(SECRET_PREFIX);

/**
 * Every signing-secret candidate in an answer, most likely first: the record's secret fields,
 * the answer's own (beside `data`), then any `whsec_` value wherever it sits. The reference
 * shows the secret only as the record's `secret`; services place it elsewhere too.
 */
export function signingSecretsIn(answer: unknown): string[] {
	const candidates: unknown[] = [];
	for (const holder of [unwrap(asObject(answer) ?? {}), asObject(answer) ?? {}]) {
		for (const field of SECRET_FIELDS) candidates.push(holder[field]);
	}
	const found: string[] = [];
	const visit = (value: unknown): void => {
		if (looksLikeSecret(value)) found.push(value);
		else if (value && typeof value === 'object') Object.values(value).forEach(visit);
	};
	visit(answer);
	const named = candidates.filter(
		(value): value is string => typeof value === 'string' && value !== '',
	);
	return [...new Set([...named, ...found])];
}

/** The key must never reach an output: drop it wherever the API might echo it back. */
export function redact<T>(value: T, secret: string): T {
	if (!secret) return value;
	if (typeof value === 'string') {
		return (value.includes(secret) ? value.split(secret).join('[redacted]') : value) as T;
	}
	if (Array.isArray(value)) return value.map((entry) => redact(entry, secret)) as T;
	if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
		// fromEntries keeps a key such as "__proto__" an own key; assigning it would not.
		return Object.fromEntries(
			Object.entries(value).map(([key, entry]) => [key, redact(entry, secret)]),
		) as T;
	}
	return value;
}

/**
 * A copy of `value` with every signing secret replaced by `mask`: any `whsec_` value, and any
 * value of a secret field, wherever it sits.
 */
export function maskSigningSecrets<T>(value: T, mask: string): T {
	if (looksLikeSecret(value)) return mask as T;
	if (Array.isArray(value)) return value.map((entry) => maskSigningSecrets(entry, mask)) as T;
	if (!value || typeof value !== 'object') return value;
	return Object.fromEntries(
		Object.entries(value).map(([field, entry]) => [
			field,
			SECRET_FIELDS.includes(field) && typeof entry === 'string' && entry !== ''
				? mask
				: maskSigningSecrets(entry, mask),
		]),
	) as T;
}
