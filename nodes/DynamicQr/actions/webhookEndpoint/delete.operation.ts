import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest } from '../../api';
import { webhookEndpointLocator } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { showOnlyFor } from '../shared/display';

export const description = showOnlyFor('webhookEndpoint', 'delete', [webhookEndpointLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(this, itemIndex, description).recordId('webhookEndpointId');
	await apiRequest(this, 'DELETE', `/webhooks/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
}
