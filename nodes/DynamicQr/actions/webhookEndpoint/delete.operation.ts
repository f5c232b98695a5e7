import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { recordKeyOf, webhookEndpointLocator } from '../locators';
import { operationParameters } from '../operationParameters';
import { showOnlyFor } from '../display';
import type { ActionRun } from '../run';

export const description = showOnlyFor('webhookEndpoint', 'delete', [webhookEndpointLocator]);

export const recordKey = recordKeyOf(webhookEndpointLocator);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(this, itemIndex, description).recordId('webhookEndpointId');
	await run.client.request('DELETE', `/webhooks/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
}
