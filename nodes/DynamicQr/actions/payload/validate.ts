import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { isFieldRequired, type PayloadMode, type QrType, type QrTypeField } from '../../qrTypes';
import { FORMATS } from './formats';
import { isEmpty, mixedFieldsCollected } from './read';
import { describeValue, type ParameterReader } from '../../shared/parameters';

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
		if (isEmpty(value) && isFieldRequired(type, field, mode)) {
			throw new NodeOperationError(
				node,
				`Missing ${where}: it is required for type ${type.label}`,
				{ itemIndex, description: howToFill(parameters, type, field) },
			);
		}
		if (isEmpty(value)) continue;
		const problem =
			field.format !== 'links' && typeof value !== 'string' && typeof value !== 'number'
				? `must be text (got ${describeValue(value)})`
				: FORMATS[field.format].check?.(value);
		if (problem) {
			throw new NodeOperationError(node, `Invalid ${where}: ${problem}`, {
				itemIndex,
				description: `Correct "${field.label}" for this item and run again; nothing was sent to the API.`,
			});
		}
	}
}
