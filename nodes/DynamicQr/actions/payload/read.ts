import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { findQrType, QR_TYPES, type QrType } from '../../qrTypes';
import {
	fieldParameterName,
	MIXED_PAYLOAD_COLLECTION,
	mixedParameterName,
	TYPED_PAYLOAD_SINCE,
} from './names';
import { isBlank, type ParameterReader } from '../../shared/parameters';

/** The item's type: a value or label of the table, in any case ("url", "URL", "Google Review"). */
export function getQrType(parameters: ParameterReader): QrType {
	const raw = parameters.raw('type');
	const type = typeof raw === 'string' ? findQrType(raw) : undefined;
	if (type) return type;
	const known = QR_TYPES.map((entry) => entry.value).join(', ');
	if (typeof raw !== 'string') {
		throw parameters.fail(
			{ property: parameters.property('type') },
			raw,
			`a QR code type as text, one of: ${known}`,
		);
	}
	throw new NodeOperationError(
		parameters.node,
		`Unknown QR code type ${JSON.stringify(raw.slice(0, 40))} in item ${parameters.itemIndex}`,
		{ itemIndex: parameters.itemIndex, description: `Use one of: ${known}.` },
	);
}

/** Blank, or an empty list (of links). */
export const isEmpty = (value: unknown) =>
	isBlank(value) || (Array.isArray(value) && value.length === 0);

/** Whether the node's version gives the mixed-type fields as one collection (Payload Fields). */
export const mixedFieldsCollected = (parameters: ParameterReader) =>
	parameters.node.typeVersion >= TYPED_PAYLOAD_SINCE;

/** The payload as given (empty fields left out), each field read by its declared type. */
export function readPayload(parameters: ParameterReader, type: QrType): IDataObject {
	const input = parameters.option('payloadInput');
	if (input === 'json') return parameters.jsonObject('payloadJson');
	const collected =
		input === 'mixed' && mixedFieldsCollected(parameters)
			? parameters.collection(MIXED_PAYLOAD_COLLECTION)
			: undefined;
	const payload: IDataObject = {};
	for (const field of type.fields) {
		// Required per type: validatePayload says so in the words of the item's type.
		let value = collected
			? collected[field.name]
			: parameters.value(
					input === 'mixed'
						? mixedParameterName(field.name)
						: fieldParameterName(type.value, field.name),
					{ required: false },
				);
		// Links: the fixed collection's `link` entries, or a list from JSON.
		if (field.format === 'links') value = (value as { link?: unknown } | null)?.link ?? value;
		else if (typeof value === 'string') value = value.trim();
		if (!isEmpty(value)) payload[field.name] = value as IDataObject[keyof IDataObject];
	}
	return payload;
}
