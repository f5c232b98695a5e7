import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { QrType } from '../../qrTypes';
import { findQrType, QR_TYPES } from '../../qrTypes';
import { parseJsonParameter } from '../shared/values';
import { fieldParameterName, mixedParameterName } from './names';

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

export function isEmpty(value: unknown): boolean {
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
			input === 'mixed'
				? mixedParameterName(field.name)
				: fieldParameterName(type.value, field.name);
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
