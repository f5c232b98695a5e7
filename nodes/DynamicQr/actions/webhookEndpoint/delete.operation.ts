import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest } from '../../api';
import { getRecordId, webhookEndpointLocator } from '../shared/locators';
import { showOnlyFor } from '../shared/display';

export const description = showOnlyFor('webhookEndpoint', 'delete', [webhookEndpointLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'webhookEndpointId', itemIndex);
	await apiRequest(this, 'DELETE', `/webhooks/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
}
