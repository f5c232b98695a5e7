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
import { requestOptionsProperty } from './actions/shared/parameters';
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
			requestOptionsProperty,
		],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
