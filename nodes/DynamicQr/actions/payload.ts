import type { IDataObject, IExecuteFunctions, INode, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QrType, QrTypeField } from '../qrTypes';
import { findQrType } from '../qrTypes';

/**
 * Builds, reads and checks the per-type payload fields of Create, Update and Generate, all
 * from the one table in qrTypes.ts.
 */
export type PayloadMode = 'create' | 'update' | 'static';

const fieldParameterName = (type: QrType, field: QrTypeField) =>
	`payload_${type.value}_${field.name}`;

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

function fieldProperty(type: QrType, field: QrTypeField, mode: PayloadMode): INodeProperties {
	const base = {
		displayName: field.label,
		name: fieldParameterName(type, field),
		required: isRequired(type, field, mode),
		description:
			mode === 'update' ? `${field.description}. Leave empty to keep it.` : field.description,
		displayOptions: { show: { type: [type.value], payloadInput: ['fields'] } },
	};
	switch (field.format) {
		case 'datetime':
			return { ...base, type: 'dateTime', default: '' };
		case 'links':
			return {
				...base,
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
				...base,
				type: 'string',
				default: '',
				placeholder: field.placeholder,
				...(field.format === 'longText' ? { typeOptions: { rows: 3 } } : {}),
			};
	}
}

/**
 * The Type selector, the choice between per-type fields and raw JSON, and every type's
 * fields (shown only for the chosen type). The caller wraps them in its resource/operation.
 */
export function payloadProperties(types: QrType[], mode: PayloadMode): INodeProperties[] {
	const proTypes = types.filter((type) => type.plan === 'pro').map((type) => type.value);
	const inputOptions = [
		{
			name: 'Fields for the Type',
			value: 'fields',
			description: 'Fill in the fields the chosen type needs',
		},
		{ name: 'JSON', value: 'json', description: 'Write the whole payload object as JSON' },
	];
	const defaultInput = mode === 'update' ? 'none' : 'fields';
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
		default: defaultInput,
	};
	const type: INodeProperties = {
		displayName: 'Type',
		name: 'type',
		type: 'options',
		required: true,
		options: typeOptions(types),
		default: 'url',
		description:
			mode === 'update'
				? "The code's current type, or another type to change it to (its payload is then replaced)"
				: 'What the code does when scanned; it decides the payload fields',
		...(mode === 'update'
			? { displayOptions: { show: { payloadInput: ['fields', 'json'] } } }
			: {}),
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
			displayOptions: { show: { type: proTypes, payloadInput: ['fields', 'json'] } },
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
		for (const field of type.fields) properties.push(fieldProperty(type, field, mode));
	}
	if (mode === 'update') {
		properties.push({
			displayName: 'Replace Payload',
			name: 'replacePayload',
			type: 'boolean',
			default: false,
			description:
				'Whether to replace the whole payload with the fields set here instead of merging them into the current payload',
			displayOptions: { show: { payloadInput: ['fields', 'json'] } },
		});
	}
	return properties;
}

export function getQrType(ctx: IExecuteFunctions, itemIndex: number): QrType {
	const value = ctx.getNodeParameter('type', itemIndex) as string;
	const type = findQrType(value);
	if (!type) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Unknown QR code type "${value}" in item ${itemIndex}`,
			{
				itemIndex,
				description: 'Choose one of the types offered in the Type field.',
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

/** The payload as the user gave it: the type's fields (empty ones left out) or the JSON object. */
export function readPayload(ctx: IExecuteFunctions, itemIndex: number, type: QrType): IDataObject {
	if (ctx.getNodeParameter('payloadInput', itemIndex) === 'json') {
		const raw = ctx.getNodeParameter('payloadJson', itemIndex, '{}');
		let parsed: unknown = raw;
		if (typeof raw === 'string') {
			try {
				parsed = JSON.parse(raw);
			} catch (error) {
				throw new NodeOperationError(
					ctx.getNode(),
					`"Payload (JSON)" in item ${itemIndex} is not valid JSON: ${(error as Error).message}`,
					{ itemIndex },
				);
			}
		}
		if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
			throw new NodeOperationError(
				ctx.getNode(),
				`"Payload (JSON)" in item ${itemIndex} must be a JSON object`,
				{ itemIndex, description: 'For example {"url": "https://example.com"}.' },
			);
		}
		return parsed as IDataObject;
	}
	const payload: IDataObject = {};
	for (const field of type.fields) {
		const raw = ctx.getNodeParameter(fieldParameterName(type, field), itemIndex, '');
		let value = raw;
		if (field.format === 'links') value = (raw as { link?: IDataObject[] } | null)?.link ?? [];
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

/**
 * Fails before any request when a required field is missing or a URL, email, phone number,
 * date or link is malformed, naming the field and the item.
 */
export function validatePayload(
	node: INode,
	itemIndex: number,
	type: QrType,
	payload: IDataObject,
	mode: PayloadMode,
): void {
	for (const field of type.fields) {
		const value = payload[field.name];
		const where = `"${field.label}" (payload.${field.name}) in item ${itemIndex}`;
		if (isEmpty(value)) {
			if (isRequired(type, field, mode)) {
				throw new NodeOperationError(
					node,
					`Missing ${where}: it is required for type ${type.label}`,
					{ itemIndex, description: `Fill in "${field.label}": ${field.description}.` },
				);
			}
			continue;
		}
		const problem = FORMAT_CHECKS[field.format]?.(value);
		if (problem) {
			throw new NodeOperationError(node, `Invalid ${where}: ${problem}`, {
				itemIndex,
				description: `Correct "${field.label}" and run again; nothing was sent to the API.`,
			});
		}
	}
}
