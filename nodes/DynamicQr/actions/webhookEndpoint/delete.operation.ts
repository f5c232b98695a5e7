import { webhookEndpointLocator } from '../locators';
import { showOnlyFor } from '../display';
import type { Operation } from '../run';

export const description = showOnlyFor('webhookEndpoint', 'delete', [webhookEndpointLocator]);

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('webhookEndpointId');
	await run.client.request('DELETE', `/webhooks/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
};
