import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeType,
	INodeTypeDescription,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import * as account from './actions/account';
import * as card from './actions/card';
import * as lead from './actions/lead';
import * as logo from './actions/logo';
import * as qrCode from './actions/qrCode';
import { router } from './actions/router';
import * as staticQrCode from './actions/staticQrCode';
import * as webhookEndpoint from './actions/webhookEndpoint';
import { listSearch } from './methods';

export class DynamicQr implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR',
		name: 'dynamicQr',
		icon: { light: 'file:dynamicQr.svg', dark: 'file:dynamicQr.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: '={{$parameter["operation"] + ": " + $parameter["resource"]}}',
		description:
			'Create and re-point dynamic QR codes, download print files, read scans, cards and leads',
		defaults: { name: 'Dynamic QR' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dynamicQrApi', required: true }],
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				options: [
					{ name: 'Account', value: 'account' },
					{ name: 'Card', value: 'card' },
					{ name: 'Lead', value: 'lead' },
					{ name: 'Logo', value: 'logo' },
					{ name: 'QR Code', value: 'qrCode' },
					{ name: 'Static QR Code', value: 'staticQrCode' },
					{ name: 'Webhook Endpoint', value: 'webhookEndpoint' },
				],
				default: 'qrCode',
			},
			...account.description,
			...card.description,
			...lead.description,
			...logo.description,
			...qrCode.description,
			...staticQrCode.description,
			...webhookEndpoint.description,
			{
				displayName: 'Request Options',
				name: 'requestOptions',
				type: 'collection',
				placeholder: 'Add Option',
				default: {},
				options: [
					{
						displayName: 'Concurrent Requests',
						name: 'concurrency',
						type: 'number',
						typeOptions: { minValue: 1, maxValue: 20 },
						default: 1,
						description:
							'The most items to process at once; 1 sends one request at a time. Without this option the node adapts on its own: more requests at once while the API answers quickly and the plan has room, fewer when it runs low. Output order and pairing are kept either way.',
					},
					{
						displayName: 'Max Rate Limit Wait (Seconds)',
						name: 'maxRateLimitWait',
						type: 'number',
						typeOptions: { minValue: 0 },
						default: 300,
						description:
							'When the API answers 429 (too many requests), wait the time it asks for and retry, up to this many seconds in total per request',
					},
				],
			},
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
