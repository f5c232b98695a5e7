import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { QR_TYPES } from '../../../qrTypes';

import { typeOptions } from '../../payload';

/** The filters the code list takes (Get Many, and Get Scan Report's codes by filters). */
export const listFiltersProperty: INodeProperties = {
	displayName: 'Filters',
	name: 'filters',
	type: 'collection',
	placeholder: 'Add Filter',
	default: {},
	options: [
		{
			displayName: 'Archived',
			name: 'archived',
			type: 'boolean',
			default: false,
			description: 'Whether to list only archived codes (on) or only codes not archived (off)',
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
	],
};

/** The list's query for the filters as the reader gave them. */
export function listQuery(filters: IDataObject): IDataObject {
	const qs: IDataObject = {};
	if (filters.search) qs.search = filters.search;
	if (filters.type) qs.type = filters.type;
	if (filters.archived !== undefined) qs.archived = filters.archived ? 'true' : 'false';
	return qs;
}
