import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { QR_TYPES, type QrType } from '../qrTypes';

/** The QR types as options of a Type field, Pro types saying so. */
export const typeOptions = (types: QrType[]): INodePropertyOptions[] =>
	types.map(({ label, value, description, plan }) => ({
		name: label,
		value,
		description: description + (plan === 'pro' ? '. Needs a plan with smart redirects (Pro).' : ''),
	}));

/** The filters of `GET /qr-codes`: "list" (Get Many, Get Scan Report), "watch" (scan events). */
export const codeFilterOptions = (verb: 'list' | 'watch'): INodeProperties[] => [
	{
		displayName: 'Archived',
		name: 'archived',
		type: 'boolean',
		default: false,
		description: `Whether to ${verb} only archived codes (on) or only codes not archived (off)`,
	},
	{
		displayName: 'Search',
		name: 'search',
		type: 'string',
		default: '',
		placeholder: 'e.g. flyer',
		description: 'Only codes whose name contains this text',
	},
	{
		displayName: 'Type',
		name: 'type',
		type: 'options',
		options: typeOptions(QR_TYPES),
		default: 'url',
		description: 'Only codes of this type',
	},
];

/** The list's query of the filters as the reader gives them (only those set); `archived` as text. */
export const codeListQuery = (filters: IDataObject): IDataObject =>
	filters.archived === undefined ? filters : { ...filters, archived: String(filters.archived) };
