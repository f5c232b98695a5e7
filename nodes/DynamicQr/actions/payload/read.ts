import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { findQrType, isFieldRequired, QR_TYPES } from '../../qrTypes';
import type { PayloadMode, QrType, QrTypeField } from '../../qrTypes';
import { FORMATS, isEmpty } from './formats';
import {
	fieldParameterName,
	MIXED_PAYLOAD_COLLECTION,
	mixedParameterName,
	TYPED_PAYLOAD_SINCE,
} from './names';
import { describeValue, type ParameterReader } from '../../shared/parameters';

/** The item's type: a value or label of the table, in any case ("url", "URL", "Google Review"). */
export function getQrType(parameters: ParameterReader): QrType {
	const raw = parameters.raw('type');
	const type = typeof raw === 'string' ? findQrType(raw) : undefined;
	if (type) return type;
	const known = QR_TYPES.map((entry) => entry.value).join(', ');
	if (typeof raw !== 'string') {
		const property = parameters.property('type');
		throw parameters.fail({ property }, raw, `a QR code type as text, one of: ${known}`);
	}
	throw new NodeOperationError(
		parameters.node,
		`Unknown QR code type ${JSON.stringify(raw.slice(0, 40))} in item ${parameters.itemIndex}`,
		{ itemIndex: parameters.itemIndex, description: `Use one of: ${known}.` },
	);
}

/** Whether the node's version gives the mixed-type fields as one collection (Payload Fields). */
const mixedFieldsCollected = (parameters: ParameterReader) =>
	parameters.node.typeVersion >= TYPED_PAYLOAD_SINCE;

/** The payload as given (empty fields left out), each field read by its declared type, checked. */
export function readPayload(parameters: ParameterReader, type: QrType, mode: PayloadMode) {
	const input = parameters.option('payloadInput');
	const [json, mixed] = [input === 'json', input === 'mixed'];
	const collected =
		mixed && mixedFieldsCollected(parameters)
			? parameters.collection(MIXED_PAYLOAD_COLLECTION)
			: undefined;
	const payload: IDataObject = json ? parameters.jsonObject('payloadJson') : {};
	for (const field of json ? [] : type.fields) {
		// Required per type: validatePayload says so in the words of the item's type.
		const key = mixed ? mixedParameterName(field.name) : fieldParameterName(type.value, field.name);
		let value = collected ? collected[field.name] : parameters.value(key, { required: false });
		// Links: the fixed collection's `link` entries, or a list from JSON.
		if (field.format === 'links') value = (value as { link?: unknown } | null)?.link ?? value;
		else if (typeof value === 'string') value = value.trim();
		if (!isEmpty(value)) payload[field.name] = value as IDataObject[keyof IDataObject];
	}
	validatePayload(parameters, type, payload, mode);
	return payload;
}

/** How to supply a missing field, in the terms of the Payload Input the user chose. */
function howToFill(parameters: ParameterReader, type: QrType, field: QrTypeField) {
	const input = parameters.option('payloadInput');
	if (input === 'json') return `Add "${field.name}" to the JSON payload: ${field.description}.`;
	if (input === 'mixed') {
		const where = mixedFieldsCollected(parameters)
			? `Add "${field.label}" to Payload Fields and map it`
			: `Map "${field.label}"`;
		return `${where} to your data: items of type ${type.label} need it (${field.description}).`;
	}
	const typeParameter = parameters.node.parameters.type;
	if (typeof typeParameter === 'string' && typeParameter.startsWith('=')) {
		return `The Type comes from an expression, and this item is of type ${type.label}, whose fields were not filled in. To take types from the data, choose Payload Input "Fields for Mixed Types" (every field once, by name) or "JSON".`;
	}
	return `Fill in "${field.label}": ${field.description}.`;
}

/** Fails before any request on a field the type lacks, a missing required one, a malformed one. */
export function validatePayload(
	parameters: ParameterReader,
	type: QrType,
	payload: IDataObject,
	mode: PayloadMode,
): void {
	const { node, itemIndex } = parameters;
	const fail = (message: string, description: string) =>
		new NodeOperationError(node, message, { itemIndex, description });
	const unknown = Object.keys(payload).filter(
		(key) => !type.fields.some((field) => field.name === key),
	);
	if (unknown.length) {
		throw fail(
			`Item ${itemIndex} has ${unknown.map((key) => `payload.${key}`).join(', ')}, which type ${type.label} does not have`,
			`Type ${type.label} (${type.value}) takes: ${type.fields.map((field) => field.name).join(', ')}. Nothing was sent to the API.`,
		);
	}
	for (const field of type.fields) {
		const value = payload[field.name];
		const where = `"${field.label}" (payload.${field.name}) in item ${itemIndex}`;
		if (isEmpty(value)) {
			if (!isFieldRequired(type, field, mode)) continue;
			const fix = howToFill(parameters, type, field);
			throw fail(`Missing ${where}: it is required for type ${type.label}`, fix);
		}
		const problem =
			field.format !== 'links' && typeof value !== 'string' && typeof value !== 'number'
				? `must be text (got ${describeValue(value)})`
				: FORMATS[field.format].check?.(value);
		const fix = `Correct "${field.label}" for this item and run again; nothing was sent to the API.`;
		if (problem) throw fail(`Invalid ${where}: ${problem}`, fix);
	}
}
