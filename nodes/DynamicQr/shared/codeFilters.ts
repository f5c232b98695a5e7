import type { IDataObject, INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import { QR_TYPES, type QrType } from '../qrTypes';

/** The QR types as options of a Type field, Pro types saying so. */
export function typeOptions(types: QrType[]): INodePropertyOptions[] {
	return types.map((type) => ({
		name: type.label,
		value: type.value,
		description:
			type.plan === 'pro'
				? `${type.description}. Needs a plan with smart redirects (Pro).`
				: type.description,
	}));
}

/**
 * The filters the list of codes takes (`GET /qr-codes`: search, type, archived), as QR Code ›
 * Get Many and Get Scan Report show them ("list") and the polling trigger's scan events ("watch").
 */
export function codeFilterOptions(verb: 'list' | 'watch'): INodeProperties[] {
	return [
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
}

/** The list's query for the filters as the parameter reader gave them. */
export function codeListQuery(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	if (filters.search) qs.search = filters.search;
	if (filters.type) qs.type = filters.type;
	if (filters.archived !== undefined) qs.archived = filters.archived ? 'true' : 'false';
	return qs;
}
