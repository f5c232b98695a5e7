import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import { toItems, unwrap } from '../common';

export const description = updateDisplayOptions(
	{ show: { resource: ['account'], operation: ['get'] } },
	[],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(unwrap(await apiRequest(this, 'GET', '/me', { itemIndex })));
}
