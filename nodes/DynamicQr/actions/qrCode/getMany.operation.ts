import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';

import { readLimit, returnAllOrLimit } from '../shared/listing';
import { simplifyProperty, simplifyQrCode, toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import { operationParameters } from '../shared/parameters';
import { typeOptions } from '../payload';
import type { ActionRun } from '../shared/run';

const properties: INodeProperties[] = [
	...returnAllOrLimit,
	{
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
	},
	simplifyProperty,
];

export const description = showOnlyFor('qrCode', 'getAll', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	const parameters = operationParameters(this, itemIndex, description);
	const filters = parameters.collection('filters');
	const limit = readLimit(parameters);
	const simplify = parameters.boolean('simplify');
	const qs: IDataObject = {};
	if (filters.search) qs.search = filters.search;
	if (filters.type) qs.type = filters.type;
	if (filters.archived !== undefined) qs.archived = filters.archived ? 'true' : 'false';
	const records = await run.client.all('/qr-codes', qs, limit, { itemIndex });
	return toItems(records.map((record) => simplifyQrCode(simplify, record)));
}
