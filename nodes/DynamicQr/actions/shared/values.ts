import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

/** "2030-05-01" from a date picker value, an ISO string or a Luxon DateTime. */
export function toCalendarDate(value: unknown): string | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	const date = /^\d{4}-\d{2}-\d{2}/.exec(text);
	return date ? date[0] : new Date(text).toISOString().slice(0, 10);
}

/** A full ISO 8601 timestamp from a date picker value; rejects what is no date. */
export function toTimestamp(
	ctx: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): string | undefined {
	const text = String(value ?? '').trim();
	if (!text) return undefined;
	const time = Date.parse(text);
	if (Number.isNaN(time)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid "${field}" in item ${itemIndex}: "${text}" is not a date`,
			{ itemIndex, description: 'Use an ISO 8601 date-time, e.g. 2030-05-01T18:00:00Z.' },
		);
	}
	return new Date(time).toISOString();
}

export function parseJsonParameter(
	ctx: IExecuteFunctions,
	value: unknown,
	field: string,
	itemIndex: number,
): IDataObject {
	let parsed = value;
	if (typeof value === 'string') {
		try {
			parsed = JSON.parse(value || '{}');
		} catch (error) {
			throw new NodeOperationError(
				ctx.getNode(),
				`"${field}" in item ${itemIndex} is not valid JSON: ${(error as Error).message}`,
				{ itemIndex },
			);
		}
	}
	if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`"${field}" in item ${itemIndex} must be a JSON object`,
			{
				itemIndex,
			},
		);
	}
	return parsed as IDataObject;
}
