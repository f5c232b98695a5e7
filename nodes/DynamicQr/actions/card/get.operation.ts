import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { cardLocator } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

export const description = showOnlyFor('card', 'get', [cardLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(this, itemIndex, description).recordId('cardId');
	return toItems(unwrap(await apiRequest(this, 'GET', `/cards/${id}`, { itemIndex })));
}
