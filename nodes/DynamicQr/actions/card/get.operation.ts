import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { cardLocator, getRecordId, toItems, unwrap } from '../common';

export const description = updateDisplayOptions(
	{ show: { resource: ['card'], operation: ['get'] } },
	[cardLocator],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'cardId', itemIndex);
	return toItems(unwrap(await apiRequest(this, 'GET', `/cards/${id}`, { itemIndex })));
}
