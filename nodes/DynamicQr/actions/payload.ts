import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QrType, QrTypeField } from '../qrTypes';
import { findQrType, QR_TYPES } from '../qrTypes';
import { parseJsonParameter } from './common';

/**
 * Builds, reads and checks the payload fields of Create, Update and Generate, all from the one
 * table in qrTypes.ts. Three ways to give a payload:
 * - Fields for the Type: the chosen type's own fields (required ones marked);
 * - Fields for Mixed Types: every payload field once, by name, for a Type that comes from the
 *   data (an expression); each item sends the fields its own type uses;
 * - JSON: the whole payload object.
 */
export type PayloadMode = 'create' | 'update' | 'static';

const fieldParameterName = (type: QrType, field: QrTypeField) =>
	`payload_${type.value}_${field.name}`;
const mixedParameterName = (field: QrTypeField) => `mixedPayload_${field.name}`;

const isRequired = (type: QrType, field: QrTypeField, mode: PayloadMode) =>
	mode === 'update'
		? false
		: field.required || (mode === 'static' && (type.staticRequired ?? []).includes(field.name));

export function typeOptions(types: QrType[]) {
	return types.map((type) => ({
		name: type.label,
		value: type.value,
		description:
			type.plan === 'pro'
				? `${type.description}. Needs a plan with smart redirects (Pro).`
				: type.description,
	}));
}

function fieldInput(field: QrTypeField): Omit<INodeProperties, 'displayName' | 'name'> {
	switch (field.format) {
		case 'datetime':
			return { type: 'dateTime', default: '' };
		case 'links':
			return {
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
			};
		default:
			return {
				type: 'string',
				default: '',
				placeholder: field.placeholder,
				...(field.format === 'longText' ? { typeOptions: { rows: 3 } } : {}),
			};
	}
}

/**
 * One type's field for "Fields for the Type". A required field comes twice under one name, so
 * that n8n's pre-run check and the editor agree for a fixed Type and for a Type expression:
 * - the required copy is hidden for any other Type value, an expression included (n8n never
 *   reads an expression in `hide`), so it marks the field required only for a fixed Type;
 * - the optional copy is shown only while Type is an expression (n8n counts a field whose
 *   `show` key holds an expression as shown), so what was entered for that type is kept and
 *   each item of that type sends it; the node checks it item by item.
 */
function fieldProperties(type: QrType, field: QrTypeField, mode: PayloadMode): INodeProperties[] {
	const base = {
		displayName: field.label,
		name: fieldParameterName(type, field),
		description:
			mode === 'update' ? `${field.description}. Leave empty to keep it.` : field.description,
		...fieldInput(field),
	} as INodeProperties;
	const ofThisType = { payloadInput: ['fields'], type: [type.value] };
	if (!isRequired(type, field, mode)) return [{ ...base, displayOptions: { show: ofThisType } }];
	return [
		{
			...base,
			required: true,
			displayOptions: {
				show: { payloadInput: ['fields'] },
				hide: { type: [{ _cnd: { not: type.value } }] },
			},
		},
		{ ...base, displayOptions: { show: ofThisType, hide: { type: [type.value] } } },
	];
}

/** Which types use a payload key, e.g. "URL (required), Event, Coupon". */
function usersOf(types: QrType[], key: string, mode: PayloadMode): string {
	return types
		.flatMap((type) =>
			type.fields
				.filter((field) => field.name === key)
				.map((field) => `${type.label}${isRequired(type, field, mode) ? ' (required)' : ''}`),
		)
		.join(', ');
}

/** "Fields for Mixed Types": every payload key once, never required (that depends on the item's type). */
function mixedFieldProperties(types: QrType[], mode: PayloadMode): INodeProperties[] {
	const firstByKey = new Map<string, QrTypeField>();
	for (const type of types) {
		for (const field of type.fields)
			if (!firstByKey.has(field.name)) firstByKey.set(field.name, field);
	}
	return [...firstByKey.values()].map((field) => ({
		displayName: field.label,
		name: mixedParameterName(field),
		description: `payload.${field.name}, sent for items of type ${usersOf(types, field.name, mode)}${
			field.format === 'links' ? '. A JSON list of {"title", "url"}.' : ''
		}`,
		...(field.format === 'links'
			? { type: 'json' as const, default: '' }
			: { ...fieldInput(field), placeholder: field.placeholder }),
		displayOptions: { show: { payloadInput: ['mixed'] } },
	}));
}

/**
 * The Type selector, the choice of payload input, and every way of filling the payload. The
 * caller wraps them in its resource/operation.
 */
export function payloadProperties(types: QrType[], mode: PayloadMode): INodeProperties[] {
	const proTypes = types.filter((type) => type.plan === 'pro').map((type) => type.value);
	const inputOptions = [
		{
			name: 'Fields for the Type',
			value: 'fields',
			description: 'Fill in the fields of the type chosen in Type',
		},
		{
			name: 'Fields for Mixed Types',
			value: 'mixed',
			description:
				'Every payload field once, by name, for a Type taken from the data: each item sends the fields its own type uses',
		},
		{ name: 'JSON', value: 'json', description: 'Write the whole payload object as JSON' },
	];
	const changesPayload = ['fields', 'mixed', 'json'];
	const payloadInput: INodeProperties = {
		displayName: 'Payload Input',
		name: 'payloadInput',
		type: 'options',
		noDataExpression: true,
		options:
			mode === 'update'
				? [
						{
							name: 'Keep Current Payload',
							value: 'none',
							description: 'Change neither the type nor the payload',
						},
						...inputOptions,
					]
				: inputOptions,
		default: 'fields',
		...(mode === 'update' ? { default: 'none' } : {}),
	};
	const type: INodeProperties = {
		displayName: 'Type',
		name: 'type',
		type: 'options',
		required: true,
		options: typeOptions(types),
		default: 'url',
		description:
			(mode === 'update'
				? "The code's current type, or another type to change it to (its payload is then replaced)"
				: 'What the code does when scanned; it decides the payload fields') +
			'. For a type taken from the data, use an expression with Payload Input "Fields for Mixed Types" or "JSON".',
		...(mode === 'update' ? { displayOptions: { show: { payloadInput: changesPayload } } } : {}),
	};
	// Creating starts from the type; updating starts from whether the payload changes at all.
	const properties = mode === 'update' ? [payloadInput, type] : [type, payloadInput];
	if (proTypes.length && mode !== 'static') {
		properties.push({
			displayName:
				'This type needs a plan with smart redirects (Pro). On other plans the API answers 422.',
			name: 'proTypeNotice',
			type: 'notice',
			default: '',
			displayOptions: { show: { payloadInput: changesPayload, type: proTypes } },
		});
	}
	properties.push({
		displayName: 'Payload (JSON)',
		name: 'payloadJson',
		type: 'json',
		default: '{\n  "url": "https://example.com"\n}',
		description:
			mode === 'update'
				? 'Payload fields to change, as a JSON object; merged into the current payload unless Replace Payload is on'
				: "The payload object with the type's fields, as JSON",
		displayOptions: { show: { payloadInput: ['json'] } },
	});
	for (const type of types) {
		for (const field of type.fields) properties.push(...fieldProperties(type, field, mode));
	}
	properties.push(...mixedFieldProperties(types, mode));
	if (mode === 'update') {
		properties.push({
			displayName: 'Replace Payload',
			name: 'replacePayload',
			type: 'boolean',
			default: false,
			description:
				'Whether to replace the whole payload with the fields set here instead of merging them into the current payload',
			displayOptions: { show: { payloadInput: changesPayload } },
		});
	}
	return properties;
}

/**
 * The item's type: a value or a label of the table, in any case, as a sheet may hold it
 * ("url", "URL", "Google Review").
 */
export function getQrType(ctx: IExecuteFunctions, itemIndex: number): QrType {
	const raw = ctx.getNodeParameter('type', itemIndex);
	const type = findQrType(String(raw ?? ''));
	if (!type) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown QR code type "${String(raw)}" in item ${itemIndex}`,
			{
				itemIndex,
				description: `Use one of: ${QR_TYPES.map((known) => known.value).join(', ')}.`,
			},
		);
	}
	return type;
}

function isEmpty(value: unknown): boolean {
	return (
		value === undefined ||
		value === null ||
		(typeof value === 'string' && value.trim() === '') ||
		(Array.isArray(value) && value.length === 0)
	);
}

/** A links value from the fixed collection, a list from an expression, or a JSON text of a list. */
function readLinks(raw: unknown): unknown {
	if (typeof raw === 'string') {
		if (!raw.trim()) return [];
		try {
			return JSON.parse(raw);
		} catch {
			return raw; // reported by the links check, naming the field
		}
	}
	const fromCollection = (raw as { link?: unknown } | null)?.link;
	return fromCollection ?? raw ?? [];
}

/**
 * The payload as the user gave it: the type's fields or the mixed-type fields (empty ones left
 * out), or the JSON object.
 */
export function readPayload(ctx: IExecuteFunctions, itemIndex: number, type: QrType): IDataObject {
	const input = ctx.getNodeParameter('payloadInput', itemIndex) as string;
	if (input === 'json') {
		const raw = ctx.getNodeParameter('payloadJson', itemIndex, '{}');
		return parseJsonParameter(ctx, raw, 'Payload (JSON)', itemIndex);
	}
	const payload: IDataObject = {};
	for (const field of type.fields) {
		const parameter =
			input === 'mixed' ? mixedParameterName(field) : fieldParameterName(type, field);
		const raw = ctx.getNodeParameter(parameter, itemIndex, '');
		let value = raw;
		if (field.format === 'links') value = readLinks(raw) as IDataObject[];
		else if (typeof raw === 'string') value = raw.trim();
		// Numbers and dates from expressions are sent as text; nothing at all stays empty.
		else if (raw !== undefined && raw !== null) value = String(raw);
		if (!isEmpty(value)) payload[field.name] = value;
	}
	return payload;
}

const FORMAT_CHECKS: Partial<Record<QrTypeField['format'], (value: unknown) => string | null>> = {
	url: (value) => {
		try {
			const url = new URL(String(value));
			if (/^https?:$/.test(url.protocol) && url.hostname) return null;
		} catch {
			// reported below
		}
		return `must be a full http or https URL, e.g. https://example.com (got "${String(value)}")`;
	},
	email: (value) =>
		/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value))
			? null
			: `must be an email address, e.g. name@email.com (got "${String(value)}")`,
	phone: (value) => {
		const text = String(value);
		const digits = text.replace(/\D/g, '').length;
		return /^\+?[0-9 ().-]+$/.test(text) && digits >= 6 && digits <= 15
			? null
			: `must be a phone number in international format, e.g. +14155550123 (got "${text}")`;
	},
	datetime: (value) =>
		/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(
			String(value),
		) && !Number.isNaN(Date.parse(String(value)))
			? null
			: `must be an ISO 8601 date-time, e.g. 2030-05-01T18:00:00Z (got "${String(value)}")`,
	links: (value) => {
		if (!Array.isArray(value)) return 'must be a list of links, each with a title and a URL';
		for (const [index, link] of value.entries()) {
			const { title, url } = (link ?? {}) as IDataObject;
			if (isEmpty(title)) return `link ${index + 1} has no title`;
			const urlProblem = FORMAT_CHECKS.url!(url);
			if (urlProblem) return `link ${index + 1}: URL ${urlProblem}`;
		}
		return null;
	},
};

/** How to supply a missing field, in the terms of the Payload Input the user chose. */
function howToFill(ctx: IExecuteFunctions, itemIndex: number, type: QrType, field: QrTypeField) {
	const input = ctx.getNodeParameter('payloadInput', itemIndex);
	if (input === 'json') return `Add "${field.name}" to the JSON payload: ${field.description}.`;
	if (input === 'mixed') {
		return `Map "${field.label}" to your data: items of type ${type.label} need it (${field.description}).`;
	}
	const typeParameter = ctx.getNode().parameters.type;
	if (typeof typeParameter === 'string' && typeParameter.startsWith('=')) {
		return `The Type comes from an expression, and this item is of type ${type.label}, whose fields were not filled in. To take types from the data, choose Payload Input "Fields for Mixed Types" (every field once, by name) or "JSON".`;
	}
	return `Fill in "${field.label}": ${field.description}.`;
}

/**
 * Fails before any request when the payload has a field its type does not have, a required
 * field is missing, or a URL, email, phone number, date or link is malformed, naming the field,
 * the item and the item's type.
 */
export function validatePayload(
	ctx: IExecuteFunctions,
	itemIndex: number,
	type: QrType,
	payload: IDataObject,
	mode: PayloadMode,
): void {
	const node = ctx.getNode();
	const unknown = Object.keys(payload).filter(
		(key) => !type.fields.some((field) => field.name === key),
	);
	if (unknown.length) {
		throw new NodeOperationError(
			node,
			`Item ${itemIndex} has ${unknown.map((key) => `payload.${key}`).join(', ')}, which type ${type.label} does not have`,
			{
				itemIndex,
				description: `Type ${type.label} (${type.value}) takes: ${type.fields.map((field) => field.name).join(', ')}. Nothing was sent to the API.`,
			},
		);
	}
	for (const field of type.fields) {
		const value = payload[field.name];
		const where = `"${field.label}" (payload.${field.name}) in item ${itemIndex}`;
		if (isEmpty(value)) {
			if (isRequired(type, field, mode)) {
				throw new NodeOperationError(
					node,
					`Missing ${where}: it is required for type ${type.label}`,
					{ itemIndex, description: howToFill(ctx, itemIndex, type, field) },
				);
			}
			continue;
		}
		const problem = FORMAT_CHECKS[field.format]?.(value);
		if (problem) {
			throw new NodeOperationError(node, `Invalid ${where}: ${problem}`, {
				itemIndex,
				description: `Correct "${field.label}" for this item and run again; nothing was sent to the API.`,
			});
		}
	}
}
