import type { INodeProperties, INodePropertyTypeOptions } from 'n8n-workflow';

import { ID_RULE } from '../../api';
import { BOOLEAN_TEXTS, isIsoDate, isLuxonDateTime, NUMBER_TEXT } from './inputValues';

/**
 * A value read as a field's type, or undefined when it does not fit; the reader turns that into
 * the error naming the field (reader.ts).
 */

export function readBoolean(value: unknown): boolean | undefined {
	if (typeof value === 'boolean') return value;
	if (value === 1 || value === 0) return value === 1;
	return typeof value === 'string' ? BOOLEAN_TEXTS.get(value.trim().toLowerCase()) : undefined;
}

export function readNumber(
	value: unknown,
	{ minValue, maxValue, numberPrecision }: INodePropertyTypeOptions = {},
): number | undefined {
	let number: number | undefined;
	if (typeof value === 'number') number = value;
	else if (typeof value === 'string' && NUMBER_TEXT.test(value.trim())) number = Number(value);
	if (
		number === undefined ||
		!Number.isFinite(number) ||
		(!numberPrecision && !Number.isInteger(number)) ||
		(typeof minValue === 'number' && number < minValue) ||
		(typeof maxValue === 'number' && number > maxValue)
	) {
		return undefined;
	}
	return number;
}

/** Text, or a finite number (a row id, a phone number) written out. */
export function readText(value: unknown): string | undefined {
	if (typeof value === 'string') return value;
	if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint') {
		return String(value);
	}
	return undefined;
}

/** An ISO 8601 text as given (trimmed), or a Date or DateTime written as one. */
export function readDate(value: unknown): string | undefined {
	if (value instanceof Date && !Number.isNaN(value.getTime())) return value.toISOString();
	if (isLuxonDateTime(value) && value.isValid) {
		const text = value.toISO();
		if (text) return text;
	}
	if (typeof value === 'string' && isIsoDate(value.trim())) return value.trim();
	return undefined;
}

/** A record ID as text; numbers count (a sheet may hold an all-digit ID as one). */
export function readIdText(value: unknown): string | undefined {
	if (typeof value === 'string') return value.trim();
	return typeof value === 'number' && Number.isInteger(value) ? String(value) : undefined;
}

/** What a field of this type takes, in words, for the error. */
export function expected(property: INodeProperties): string {
	const options = (property.options ?? []) as Array<{ value?: unknown }>;
	switch (property.type) {
		case 'boolean':
			return 'true or false (the texts "true" and "false", or 1 and 0, count too)';
		case 'number': {
			const { minValue, maxValue } = property.typeOptions ?? {};
			const kind = property.typeOptions?.numberPrecision ? 'a number' : 'a whole number';
			if (minValue !== undefined && maxValue !== undefined)
				return `${kind} from ${minValue} to ${maxValue}`;
			if (minValue !== undefined) return `${kind} of at least ${minValue}`;
			if (maxValue !== undefined) return `${kind} of at most ${maxValue}`;
			return kind;
		}
		case 'dateTime':
			return 'an ISO 8601 date or date-time with a real calendar date, e.g. 2030-05-01 or 2030-05-01T18:00:00Z';
		case 'options':
			return property.typeOptions?.loadOptionsMethod
				? `an ID of ${ID_RULE}`
				: `one of: ${options.map((option) => String(option.value)).join(', ')}`;
		case 'multiOptions':
			return `a list of: ${options.map((option) => String(option.value)).join(', ')}`;
		case 'json':
			return 'a JSON object, or a text holding one';
		case 'resourceLocator':
			return `an ID of ${ID_RULE}, or (By URL) the record's dashboard URL`;
		default:
			return 'text (or a number, written out)';
	}
}
