import type { IDataObject } from 'n8n-workflow';

/**
 * Records as the service gives them, read into the reference's shapes: ids, the `data`
 * envelope, times, scan counts, the logo upload's id.
 */

/** Whether a value is an object with keys (not a list, not null). */
export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);

export const asObject = (value: unknown): IDataObject | undefined =>
	isObject(value) ? value : undefined;

/**
 * The value an object holds itself under `key`: a key from data ("constructor", "__proto__")
 * never finds what every object inherits.
 */
export const ownValue = (object: Record<string, unknown>, key: string): unknown =>
	Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/**
 * Ids are 12 characters, the same ids that appear in dashboard URLs. The reference does not say
 * which characters, so the URL-safe alphabet is accepted (reading "url-safe-ids": ids holding
 * "-" and "_").
 */
export const ID_CHARACTERS = '[A-Za-z0-9_-]{12}';
export const ID_PATTERN = `^${ID_CHARACTERS}$`;
/** How an ID is described in validation messages. */
export const ID_RULE = '12 letters and digits ("-" and "_" count too)';

/** A record's id as text; a number is taken too, as a service may send one. */
export const recordId = (record: IDataObject | undefined): string | undefined =>
	typeof record?.id === 'string' || typeof record?.id === 'number' ? String(record.id) : undefined;

/** Single-record answers wrap the record in `data`; an answer without the envelope is the record. */
export const unwrap = (answer: IDataObject): IDataObject => asObject(answer.data) ?? answer;

/** A QR code record's lifetime scan count (`scans`); anything but a count reads as 0. */
export function scanCount(record: IDataObject): number {
	const scans = Number(record.scans ?? 0);
	return Number.isFinite(scans) && scans >= 0 ? Math.floor(scans) : 0;
}

/**
 * A record time in ms: ISO 8601 as the reference shows times, or (reading "timestamps-unix")
 * Unix seconds or milliseconds, as numbers or digits. NaN when the value is no time at all.
 */
export function timeMs(value: unknown): number {
	const numeric =
		typeof value === 'number'
			? value
			: /^\d+(\.\d+)?$/.test(String(value ?? ''))
				? Number(value)
				: NaN;
	// Below 10^11 a number is seconds (until the year 5138), above it milliseconds (since 1973).
	if (Number.isFinite(numeric)) return numeric < 1e11 ? numeric * 1000 : numeric;
	return typeof value === 'string' ? Date.parse(value) : NaN;
}

/**
 * Whether a record was created at or before `sinceMs` (records without a readable time are
 * kept). Lists asked for records after `since` are cut with it too, whatever the service did
 * with `since` (reading "since-ignored": nothing at all).
 */
export const createdAtOrBefore =
	(sinceMs: number) =>
	(record: IDataObject): boolean =>
		timeMs(record.created_at) <= sinceMs;

/** Names a service may give the logo upload's id; the reference shows only that there is one. */
const UPLOAD_ID_FIELDS = ['id', 'upload_id', 'logo_upload_id'];

/**
 * The logo upload's record with its id as `id`, with or without `data` around it (readings
 * "logo-upload-id-only" and "logo-upload-upload-id").
 */
export function uploadRecord(answer: IDataObject): IDataObject {
	const record = unwrap(answer);
	const field = UPLOAD_ID_FIELDS.find(
		(name) => record[name] !== undefined && record[name] !== null,
	);
	return field === undefined || field === 'id' ? record : { id: record[field], ...record };
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
