import type { IDataObject } from 'n8n-workflow';

export const isObject = (value: unknown): value is IDataObject =>
	typeof value === 'object' && value !== null && !Array.isArray(value);
export const asObject = (value: unknown): IDataObject | undefined =>
	isObject(value) ? value : undefined;

/** What an object holds itself: a key from data ("__proto__") never finds what objects inherit. */
export const ownValue = (object: Record<string, unknown>, key: string): unknown =>
	Object.prototype.hasOwnProperty.call(object, key) ? object[key] : undefined;

/** 12 characters, as in dashboard URLs; the reference says not which (reading "url-safe-ids"). */
export const ID_CHARACTERS = '[A-Za-z0-9_-]{12}';
export const ID_PATTERN = `^${ID_CHARACTERS}$`;
export const ID_RULE = '12 letters and digits ("-" and "_" count too)';

/** A count the service reports (in a body or a header), as a number or a numeric string. */
export function countOf(value: unknown): number | undefined {
	if (typeof value !== 'number' && typeof value !== 'string') return undefined;
	const count = Number(value);
	return value !== '' && Number.isFinite(count) ? count : undefined;
}

export const atLeast = (value: number | undefined, min: number): number | undefined =>
	value !== undefined && Number.isFinite(value) && value >= min ? value : undefined;

/** A record's id as text; a number is taken too. */
export const recordId = (record: IDataObject | undefined): string | undefined =>
	typeof record?.id === 'string' || typeof record?.id === 'number' ? String(record.id) : undefined;

/** Single-record answers wrap the record in `data`; an answer without it is the record. */
export const unwrap = (answer: IDataObject): IDataObject => asObject(answer.data) ?? answer;

/** A QR code's lifetime scan count (`scans`); anything but a count reads as 0. */
export const scanCount = (record: IDataObject): number =>
	Math.max(0, Math.floor(countOf(record.scans) ?? 0));

/** A time in ms from ISO 8601 or (reading "timestamps-unix") Unix seconds or milliseconds. */
export function timeMs(value: unknown): number {
	const isNumber = typeof value === 'number' || /^\d+(\.\d+)?$/.test(String(value));
	const numeric = isNumber ? Number(value) : NaN;
	// Below 10^11 a number is seconds (until the year 5138), above it milliseconds (since 1973).
	if (Number.isFinite(numeric)) return numeric < 1e11 ? numeric * 1000 : numeric;
	return typeof value === 'string' ? Date.parse(value) : NaN;
}

/** Lists asked for records after `since` are cut here too (reading "since-ignored"). */
export const createdAtOrBefore =
	(sinceMs: number) =>
	(record: IDataObject): boolean =>
		timeMs(record.created_at) <= sinceMs;

/**
 * The design a create's or a change's answer shows (lists and reads show none), as `{ design }`.
 * Whether a change keeps the design keys it leaves out is not shown: the sandbox replaces the
 * design, Reading "design-merged" keeps them; either way the answer holds what the code now has.
 */
export const designShown = (record: IDataObject): IDataObject => {
	const design = asObject(record.design);
	return design ? { design } : {};
};

/** The upload with its id as `id` (readings "logo-upload-id-only", "logo-upload-upload-id"). */
export function uploadRecord(answer: IDataObject): IDataObject {
	const record = unwrap(answer);
	const field = ['id', 'upload_id', 'logo_upload_id'].find(
		(name) => (record[name] ?? null) !== null,
	);
	return field === undefined || field === 'id' ? record : { id: record[field], ...record };
}

type Leaf = (value: unknown, key?: string) => unknown;

/** A copy with each value in no list or object (a Buffer is one value) as `leaf` gives it. */
export function mapLeaves<T>(value: T, leaf: Leaf, key?: string): T {
	if (Array.isArray(value)) return value.map((entry) => mapLeaves(entry, leaf)) as T;
	if (!value || typeof value !== 'object' || Buffer.isBuffer(value)) return leaf(value, key) as T;
	// fromEntries keeps a key such as "__proto__" an own key; assigning it would not.
	const entries = Object.entries(value).map(([name, item]) => [name, mapLeaves(item, leaf, name)]);
	return Object.fromEntries(entries) as T;
}

/** The key must never reach an output: drop it wherever the API might echo it back. */
export function redact<T>(value: T, secret: string): T {
	const hide = (v: unknown) => (typeof v === 'string' ? v.split(secret).join('[redacted]') : v);
	return secret ? mapLeaves(value, hide) : value;
}
