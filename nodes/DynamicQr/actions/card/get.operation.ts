import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { cardLocator, getRecordId } from '../shared/locators';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

export const description = showOnlyFor('card', 'get', [cardLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'cardId', itemIndex);
	return toItems(unwrap(await apiRequest(this, 'GET', `/cards/${id}`, { itemIndex })));
}
