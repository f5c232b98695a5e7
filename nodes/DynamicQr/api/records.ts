import type { IDataObject } from 'n8n-workflow';

/**
 * Ids are 12 characters, the same ids that appear in dashboard URLs. The reference does not say
 * which characters, so the URL-safe alphabet is accepted: letters, digits, `-` and `_`.
 */
// Reading "url-safe-ids": ids holding "-" and "_".
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

/** A record's id as text; a number is taken too, as a service may send one. */
export const recordId = (record: IDataObject): string | undefined =>
	typeof record.id === 'string' || typeof record.id === 'number' ? String(record.id) : undefined;

/** A QR code record's lifetime scan count (`scans`); anything but a count reads as 0. */
export function scanCount(record: IDataObject): number {
	const scans = Number(record.scans ?? 0);
	return Number.isFinite(scans) && scans >= 0 ? Math.floor(scans) : 0;
}

/** Single-record answers wrap the record in `data`. */
export const unwrap = (answer: IDataObject): IDataObject => asObject(answer.data) ?? answer;

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
