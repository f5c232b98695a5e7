import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequestAllItems, listSince } from '../../api';
import { readLimit, returnAllOrLimit } from '../shared/listing';
import { cardLocator, getRecordId } from '../shared/locators';
import { toItems } from '../shared/output';
import { toTimestamp } from '../shared/values';
import { showOnlyFor } from '../shared/display';

const properties: INodeProperties[] = [
	cardLocator,
	...returnAllOrLimit,
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		options: [
			{
				displayName: 'Since',
				name: 'since',
				type: 'dateTime',
				default: '',
				description: 'Only leads shared after this moment',
			},
		],
	},
];

export const description = showOnlyFor('lead', 'getAll', properties);

/** Leads shared on a card, newest first. */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const cardId = getRecordId(this, 'cardId', itemIndex);
	const filters = this.getNodeParameter('filters', itemIndex, {}) as IDataObject;
	const since = toTimestamp(this, filters.since, 'Since', itemIndex);
	const path = `/cards/${encodeURIComponent(cardId)}/leads`;
	const limit = readLimit(this, itemIndex);
	// The service's reading of `since` is not shown: listSince finds a form it takes and leaves
	// out leads at or before Since whatever it answers.
	const leads = since
		? await listSince(this, path, Date.parse(since), limit, { itemIndex })
		: await apiRequestAllItems(this, path, {}, limit, { itemIndex });
	return toItems(leads);
}
