import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { asObject } from '../../api';
import type { FieldFormat, QrTypeField } from '../../qrTypes';
import { describeValue, isBlank, isIsoDate } from '../../shared/parameters';

/**
 * What a payload field's format decides: its parameter, the check of a value, and when a value
 * equals what a code holds. Keyed by every format, so a new format fails the build until added.
 */
interface FormatRules {
	/** Its parameter; a text field when absent. */
	input?(field: QrTypeField): Omit<INodeProperties, 'displayName' | 'name'>;
	/** A problem with the value, in words; null when it fits. */
	check?(value: unknown): string | null;
	/** Whether the value set means the same as the code's; text comparison when absent. */
	same?(wanted: unknown, current: unknown): boolean;
}

/** Blank, or an empty list (of links). */
export const isEmpty = (value: unknown) =>
	isBlank(value) || (Array.isArray(value) && value.length === 0);

export const text = (value: unknown) =>
	value === undefined || value === null ? '' : String(value).trim();

export const sameText = (wanted: unknown, current: unknown) => text(wanted) === text(current);

const textInput = (field: QrTypeField, rows?: number) => ({
	type: 'string' as const,
	default: '',
	placeholder: field.placeholder,
	...(rows ? { typeOptions: { rows } } : {}),
});

const checkUrl = (value: unknown): string | null => {
	const url = URL.canParse(String(value)) ? new URL(String(value)) : undefined;
	if (url && /^https?:$/.test(url.protocol) && url.hostname) return null;
	return `must be a full http or https URL, e.g. https://example.com (got ${describeValue(value)})`;
};

/** "+1 (415) 555-0123" and "+14155550123" dial the same number. */
const dialable = (value: unknown) =>
	(text(value).startsWith('+') ? '+' : '') + text(value).replace(/\D/g, '');

/**
 * `same` equals only what means the same everywhere (one instant, the dialled digits); URLs and
 * addresses compare as written: the reference does not say that the service normalises them.
 */
export const FORMATS: Record<FieldFormat, FormatRules> = {
	text: {},
	longText: { input: (field) => textInput(field, 3) },
	url: { check: checkUrl },
	email: {
		check: (value) =>
			/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value))
				? null
				: `must be an email address, e.g. name@email.com (got ${describeValue(value)})`,
	},
	phone: {
		check: (value) => {
			const text = String(value);
			const digits = text.replace(/\D/g, '').length;
			return /^\+?[0-9 ().-]+$/.test(text) && digits >= 6 && digits <= 15
				? null
				: `must be a phone number in international format, e.g. +14155550123 (got ${describeValue(value)})`;
		},
		same: (wanted, current) => dialable(wanted) === dialable(current),
	},
	datetime: {
		input: () => ({ type: 'dateTime', default: '' }),
		check: (value) =>
			typeof value === 'string' && isIsoDate(value)
				? null
				: `must be an ISO 8601 date-time with a real calendar date, e.g. 2030-05-01T18:00:00Z (got ${describeValue(value)})`,
		same: (wanted, current) => {
			const [a, b] = [Date.parse(text(wanted)), Date.parse(text(current))];
			return Number.isNaN(a) || Number.isNaN(b) ? sameText(wanted, current) : a === b;
		},
	},
	links: {
		input: () => ({
			type: 'fixedCollection',
			typeOptions: { multipleValues: true, sortable: true },
			placeholder: 'Add Link',
			default: {},
			options: [
				{
					displayName: 'Link',
					name: 'link',
					values: [
						{
							displayName: 'Title',
							name: 'title',
							type: 'string',
							default: '',
							placeholder: 'e.g. Our Shop',
						},
						{
							displayName: 'URL',
							name: 'url',
							type: 'string',
							default: '',
							placeholder: 'e.g. https://example.com/shop',
						},
					],
				},
			],
		}),
		check: (value) => {
			if (!Array.isArray(value)) return 'must be a list of links, each with a title and a URL';
			for (const [index, link] of value.entries()) {
				const { title, url } = (link ?? {}) as IDataObject;
				if (isEmpty(title)) return `link ${index + 1} has no title`;
				if (typeof title !== 'string') {
					return `link ${index + 1}: the title must be text (got ${describeValue(title)})`;
				}
				const urlProblem = checkUrl(url);
				if (urlProblem) return `link ${index + 1}: URL ${urlProblem}`;
			}
			return null;
		},
		same: (wanted, current) =>
			Array.isArray(wanted) &&
			Array.isArray(current) &&
			wanted.length === current.length &&
			wanted.every((link, index) => {
				const [own, other] = [asObject(link) ?? {}, asObject(current[index]) ?? {}];
				return text(own.title) === text(other.title) && text(own.url) === text(other.url);
			}),
	},
};

/** A payload field's parameter, by its format. */
export const fieldInput = (field: QrTypeField) => (FORMATS[field.format].input ?? textInput)(field);
