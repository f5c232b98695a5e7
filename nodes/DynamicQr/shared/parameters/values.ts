import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const isBlank = (value: unknown) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

export const MAX_SHOWN = 40;

type LuxonDateTime = { isLuxonDateTime: true; isValid: boolean; toISO(): string | null };

const isLuxonDateTime = (value: unknown): value is LuxonDateTime =>
	typeof value === 'object' && (value as Partial<LuxonDateTime> | null)?.isLuxonDateTime === true;

/** An object as JSON gives it: not a list, a Date or a DateTime. */
export const isPlainObject = (value: unknown): value is IDataObject =>
	Object.prototype.toString.call(value) === '[object Object]' && !isLuxonDateTime(value);

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
	if (typeof value === 'function' || typeof value === 'symbol') return `a ${typeof value}`;
	if (typeof value !== 'object') return `the ${typeof value} ${String(value)}`;
	if (Array.isArray(value))
		return `a list of ${value.length} value${value.length === 1 ? '' : 's'}`;
	if (value instanceof Date)
		return Number.isNaN(value.getTime()) ? 'an invalid Date' : `the Date ${value.toISOString()}`;
	if (isLuxonDateTime(value))
		return value.isValid ? `the DateTime ${value.toISO()}` : 'an invalid DateTime';
	const keys = Object.keys(value);
	if (!keys.length) return 'an empty object';
	return `an object with the keys ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}`;
}

const NUMBER_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const ISO_DATE =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

/** Whether an ISO 8601 text names a real moment: 2030-02-30 and 25:00 do not. */
export function isIsoDate(text: string): boolean {
	const match = ISO_DATE.exec(text);
	if (!match) return false;
	const [year, month, day, hour, minute, second, offsetH, offsetM] = match
		.slice(1)
		.map((part) => Number(part ?? 0));
	const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
	const timeFits = hour <= 23 && minute <= 59 && second <= 59 && offsetH <= 23 && offsetM <= 59;
	return timeFits && month >= 1 && month <= 12 && day >= 1 && day <= daysInMonth;
}

/** A boolean, 1 or 0, or one of the texts "true", "false", "1" and "0". */
function readBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
	if (text === 'true' || text === '1' || text === 1) return true;
	return text === 'false' || text === '0' || text === 0 ? false : undefined;
}

function readNumber(value: unknown, { typeOptions = {} }: INodeProperties): number | undefined {
	const { minValue = -Infinity, maxValue = Infinity, numberPrecision } = typeOptions;
	const isNumberText = typeof value === 'string' && NUMBER_TEXT.test(value.trim());
	const number = typeof value === 'number' ? value : isNumberText ? Number(value) : NaN;
	const fits = Number.isFinite(number) && (numberPrecision || Number.isInteger(number));
	return fits && number >= minValue && number <= maxValue ? number : undefined;
}

/** Text, or a finite number (a row id, a phone number) written out. */
export function readText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	const isNumber = Number.isFinite(value) || typeof value === 'bigint';
	return isNumber ? String(value) : undefined;
}

/** An ISO 8601 text as given (trimmed), or a Date or DateTime written as one. */
function readDate(value: unknown): string | undefined {
	if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
	const iso = isLuxonDateTime(value) && value.isValid ? value.toISO() : null;
	if (iso) return iso;
	return typeof value === 'string' && isIsoDate(value.trim()) ? value.trim() : undefined;
}

/** The readers of the types read as such (others as text): undefined when a value does not fit. */
export const READERS: Record<string, (value: unknown, property: INodeProperties) => unknown> = {
	boolean: readBoolean,
	number: readNumber,
	dateTime: readDate,
};
