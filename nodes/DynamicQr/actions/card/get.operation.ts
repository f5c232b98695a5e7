import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { cardLocator, getRecordId, toItems, unwrap } from '../common';
import { showOnlyFor } from '../display';

export const description = showOnlyFor('card', 'get', [cardLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'cardId', itemIndex);
	return toItems(unwrap(await apiRequest(this, 'GET', `/cards/${id}`, { itemIndex })));
}
