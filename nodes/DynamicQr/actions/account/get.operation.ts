import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { toItems, unwrap } from '../common';
import { showOnlyFor } from '../display';

export const description = showOnlyFor('account', 'get', []);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(unwrap(await apiRequest(this, 'GET', '/me', { itemIndex })));
}
