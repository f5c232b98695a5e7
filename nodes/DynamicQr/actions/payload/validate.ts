import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ParameterReader } from '../../api';
import { describeValue, isIsoDate } from '../../api';
import type { PayloadMode, QrType, QrTypeField } from '../../qrTypes';
import { isFieldRequired } from '../../qrTypes';
import { isEmpty } from './read';

const FORMAT_CHECKS: Partial<Record<QrTypeField['format'], (value: unknown) => string | null>> = {
	url: (value) => {
		try {
			const url = new URL(String(value));
			if (/^https?:$/.test(url.protocol) && url.hostname) return null;
		} catch {
			// reported below
		}
		return `must be a full http or https URL, e.g. https://example.com (got ${describeValue(value)})`;
	},
	email: (value) =>
		/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(String(value))
			? null
			: `must be an email address, e.g. name@email.com (got ${describeValue(value)})`,
	phone: (value) => {
		const text = String(value);
		const digits = text.replace(/\D/g, '').length;
		return /^\+?[0-9 ().-]+$/.test(text) && digits >= 6 && digits <= 15
			? null
			: `must be a phone number in international format, e.g. +14155550123 (got ${describeValue(value)})`;
	},
	datetime: (value) =>
		typeof value === 'string' && isIsoDate(value)
			? null
			: `must be an ISO 8601 date-time with a real calendar date, e.g. 2030-05-01T18:00:00Z (got ${describeValue(value)})`,
	links: (value) => {
		if (!Array.isArray(value)) return 'must be a list of links, each with a title and a URL';
		for (const [index, link] of value.entries()) {
			const { title, url } = (link ?? {}) as IDataObject;
			if (isEmpty(title)) return `link ${index + 1} has no title`;
			if (typeof title !== 'string') {
				return `link ${index + 1}: the title must be text (got ${describeValue(title)})`;
			}
			const urlProblem = FORMAT_CHECKS.url!(url);
			if (urlProblem) return `link ${index + 1}: URL ${urlProblem}`;
		}
		return null;
	},
};

/** How to supply a missing field, in the terms of the Payload Input the user chose. */
function howToFill(parameters: ParameterReader, type: QrType, field: QrTypeField) {
	const input = parameters.option('payloadInput');
	if (input === 'json') return `Add "${field.name}" to the JSON payload: ${field.description}.`;
	if (input === 'mixed') {
		return `Map "${field.label}" to your data: items of type ${type.label} need it (${field.description}).`;
	}
	const typeParameter = parameters.node.parameters.type;
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
	parameters: ParameterReader,
	type: QrType,
	payload: IDataObject,
	mode: PayloadMode,
): void {
	const { node, itemIndex } = parameters;
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
			if (isFieldRequired(type, field, mode)) {
				throw new NodeOperationError(
					node,
					`Missing ${where}: it is required for type ${type.label}`,
					{ itemIndex, description: howToFill(parameters, type, field) },
				);
			}
			continue;
		}
		const problem =
			field.format !== 'links' && typeof value !== 'string' && typeof value !== 'number'
				? `must be text (got ${describeValue(value)})`
				: FORMAT_CHECKS[field.format]?.(value);
		if (problem) {
			throw new NodeOperationError(node, `Invalid ${where}: ${problem}`, {
				itemIndex,
				description: `Correct "${field.label}" for this item and run again; nothing was sent to the API.`,
			});
		}
	}
}
