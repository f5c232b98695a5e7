import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

export const description = showOnlyFor('account', 'get', []);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(unwrap(await apiRequest(this, 'GET', '/me', { itemIndex })));
}
