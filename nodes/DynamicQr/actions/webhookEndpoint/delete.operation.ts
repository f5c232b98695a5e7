import { webhookEndpointLocator } from '../locators';
import type { Operation } from '../run';

export const description = [webhookEndpointLocator];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('webhookEndpointId');
	await run.client.request('DELETE', `/webhooks/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
};
