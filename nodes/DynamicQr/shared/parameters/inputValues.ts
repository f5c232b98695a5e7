import type { IDataObject } from 'n8n-workflow';

/** What the parameter reader knows of values: emptiness, control characters, dates, and how to show one. */

export const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export const MAX_SHOWN = 40;

/** What arrived, in a few safe words: its JavaScript type and a short form of it. */
export function describeValue(value: unknown, secret = false): string {
	if (value === undefined) return 'nothing (undefined)';
	if (value === null) return 'null';
	if (secret) return `a ${typeof value} (not shown: the field is a secret)`;
	if (typeof value === 'string') {
		const shown = JSON.stringify(value.length > MAX_SHOWN ? value.slice(0, MAX_SHOWN) : value);
		return value.length > MAX_SHOWN
			? `the text ${shown.slice(0, -1)}…" (${value.length} characters)`
			: `the text ${shown}`;
	}
	if (typeof value === 'number') return `the number ${String(value)}`;
	if (typeof value === 'boolean') return `the boolean ${String(value)}`;
	if (typeof value === 'bigint') return `the bigint ${String(value)}`;
	if (typeof value === 'function') return 'a function';
	if (typeof value === 'symbol') return 'a symbol';
	if (Array.isArray(value))
		return `a list of ${value.length} value${value.length === 1 ? '' : 's'}`;
	if (value instanceof Date) {
		return Number.isNaN(value.getTime()) ? 'an invalid Date' : `the Date ${value.toISOString()}`;
	}
	if (isLuxonDateTime(value)) {
		return value.isValid ? `the DateTime ${value.toISO()}` : 'an invalid DateTime';
	}
	const keys = Object.keys(value as object);
	const listed = keys.slice(0, 5).join(', ');
	return keys.length
		? `an object with the keys ${listed}${keys.length > 5 ? ', …' : ''}`
		: 'an empty object';
}

interface LuxonDateTime {
	isLuxonDateTime: true;
	isValid: boolean;
	toISO(): string | null;
}

export function isLuxonDateTime(value: unknown): value is LuxonDateTime {
	return (
		typeof value === 'object' &&
		value !== null &&
		(value as { isLuxonDateTime?: unknown }).isLuxonDateTime === true
	);
}

/** An object as JSON gives it: not a list, a Date or a DateTime. */
export const isPlainObject = (value: unknown): value is IDataObject =>
	Object.prototype.toString.call(value) === '[object Object]' && !isLuxonDateTime(value);

/** A Map, not an object: "constructor" or "__proto__" must not be found as a boolean text. */
export const BOOLEAN_TEXTS = new Map([
	['true', true],
	['false', false],
	['1', true],
	['0', false],
]);
export const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

/** Whether an ISO 8601 text names a real moment: 2030-02-30 and 25:00 do not. */
export function isIsoDate(text: string): boolean {
	const match = ISO_DATE.exec(text);
	if (!match) return false;
	const [, year, month, day, hour = '0', minute = '0', second = '0', offsetH = '0', offsetM = '0'] =
		match;
	const daysInMonth = new Date(Date.UTC(Number(year), Number(month), 0)).getUTCDate();
	return (
		Number(month) >= 1 &&
		Number(month) <= 12 &&
		Number(day) >= 1 &&
		Number(day) <= daysInMonth &&
		Number(hour) <= 23 &&
		Number(minute) <= 59 &&
		Number(second) <= 59 &&
		Number(offsetH) <= 23 &&
		Number(offsetM) <= 59
	);
}
