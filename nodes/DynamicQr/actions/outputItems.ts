import type { IDataObject, INodeProperties } from 'n8n-workflow';

export const simplifyProperty: INodeProperties = {
	displayName: 'Simplify',
	name: 'simplify',
	type: 'boolean',
	default: true,
	description: 'Whether to return a simplified version of the response instead of the raw data',
};

const SIMPLE_QR_CODE_FIELDS = [
	'id',
	'name',
	'type',
	'short_url',
	'destination',
	'status',
	'paused',
	'scans',
	'archived',
	'updated_at',
];

/** The record, or its main fields when Simplify (read before any request) is on. */
export function simplifyQrCode(simplify: boolean, record: IDataObject): IDataObject {
	if (!simplify) return record;
	return Object.fromEntries(
		SIMPLE_QR_CODE_FIELDS.filter((field) => field in record).map((field) => [field, record[field]]),
	);
}
