import type {
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
	IPollFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { loadOptions } from './methods';
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
		properties: [
			{
				displayName:
					'Use this node when the service cannot reach this n8n (localhost, private network). Otherwise the Dynamic QR Trigger starts the workflow at once and covers more events. Only records created after activation start the workflow.',
				name: 'pollingNotice',
				type: 'notice',
				default: '',
			},
			{
				displayName: 'Trigger On',
				name: 'event',
				type: 'options',
				noDataExpression: true,
				options: [
					{
						name: 'New Lead on a Card',
						action: 'On New Lead on a Card',
						value: 'newLead',
						description: 'A visitor shared contact data on the chosen card',
					},
					{
						name: 'New QR Code',
						action: 'On New QR Code',
						value: 'newQrCode',
						description: 'A QR code was created in the workspace',
					},
				],
				default: 'newLead',
			},
			{
				displayName: 'Card Name or ID',
				name: 'cardId',
				type: 'options',
				typeOptions: { loadOptionsMethod: 'getCards' },
				required: true,
				default: '',
				description:
					'The card whose new leads start the workflow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
				displayOptions: {
					show: {
						event: ['newLead'],
					},
				},
			},
		],
	};

	methods = { loadOptions };

	async poll(this: IPollFunctions): Promise<INodeExecutionData[][] | null> {
		return await poll(this);
	}
}
