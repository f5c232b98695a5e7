import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { loadOptions } from './methods';
import { pollingProperties } from './polling/description';
import { poll } from './polling/poll';

export class DynamicQrPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR Polling Trigger',
		name: 'dynamicQrPollingTrigger',
		icon: {
			light: 'file:dynamicQrPollingTrigger.svg',
			dark: 'file:dynamicQrPollingTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle: '={{$parameter["event"] === "newLead" ? "New lead" : "New QR code"}}',
		description:
			'Starts the workflow on new leads of a card or new QR codes by asking the API on a schedule; for n8n instances the service cannot reach',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-polling-trigger',
		defaults: {
			name: 'Dynamic QR Polling Trigger',
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'dynamicQrApi',
				required: true,
			},
		],
		properties: pollingProperties,
	};

	methods = { loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
