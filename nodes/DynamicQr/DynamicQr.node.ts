import type {
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
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

const operations: INodeProperties[] = [
	...account.description,
	...card.description,
	...lead.description,
	...logo.description,
	...qrCode.description,
	...staticQrCode.description,
	...webhookEndpoint.description,
];

const resourceProperty: INodeProperties = {
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
};

/**
 * The canvas subtitle: the chosen operation's action in words ("Create a QR code"), looked up
 * from the operations' own options so it cannot drift from them. "resource:operation" is looked
 * up in a list of pairs: an object would also hold "constructor", and a nested one would end in
 * "}}" and close the expression early.
 */
function subtitleInWords(properties: INodeProperties[]): string {
	const actions: Array<[string, string]> = [];
	for (const property of properties) {
		if (property.name !== 'operation') continue;
		for (const resource of property.displayOptions?.show?.resource ?? []) {
			for (const option of property.options ?? []) {
				if ('value' in option) {
					actions.push([
						`${String(resource)}:${String(option.value)}`,
						option.action ?? option.name,
					]);
				}
			}
		}
	}
	return `={{ (${JSON.stringify(actions)}.find((pair) => pair[0] === $parameter["resource"] + ":" + $parameter["operation"]) || ["", ""])[1] }}`;
}

export class DynamicQr implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR',
		name: 'dynamicQr',
		icon: { light: 'file:dynamicQr.svg', dark: 'file:dynamicQr.dark.svg' },
		group: ['transform'],
		version: 1,
		subtitle: subtitleInWords(operations),
		description:
			'Create and re-point dynamic QR codes, download print files, read scans, cards and leads',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-action-node',
		defaults: { name: 'Dynamic QR' },
		usableAsTool: true,
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dynamicQrApi', required: true }],
		properties: [resourceProperty, ...operations, requestOptionsProperty],
	};

	methods = { listSearch };

	async execute(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
		return await router.call(this);
	}
}
