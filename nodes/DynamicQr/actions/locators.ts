import type { INodeProperties, INodePropertyModeTypeOptions } from 'n8n-workflow';

import { ID_CHARACTERS, ID_PATTERN, ID_RULE } from '../api';
import { operationParameters } from './operationParameters';
import type { RecordKey } from './run';

interface LocatorSpec {
	name: string;
	displayName: string;
	/** The record in words, for descriptions and errors: "QR code". */
	noun: string;
	searchListMethod: string;
	/** Dashboard path segment (`qr-codes`, `cards`) when the record has a dashboard URL. */
	dashboardSegment?: string;
}

/** A resource locator: from a searchable list, by ID, and (codes, cards) by dashboard URL. */
export function recordLocator(spec: LocatorSpec): INodeProperties {
	const idValidation = [
		{
			type: 'regex' as const,
			properties: {
				regex: ID_PATTERN,
				errorMessage: `A ${spec.noun} ID has ${ID_RULE}`,
			},
		},
	];
	const urlRegex = `^https?://\\S+/${spec.dashboardSegment}/(${ID_CHARACTERS})/?(?:[?#]\\S*)?$`;
	const every: Pick<INodeProperties, 'modes'> = {
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: {
					searchListMethod: spec.searchListMethod,
					searchable: true,
				} as INodePropertyModeTypeOptions,
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. a1B2c3D4e5F6',
				validation: idValidation,
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://qr.example.com/${spec.dashboardSegment}/a1B2c3D4e5F6`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex: urlRegex,
							errorMessage: `Paste the dashboard URL of the ${spec.noun}, ending in /${spec.dashboardSegment}/<ID>`,
						},
					},
				],
				extractValue: { type: 'regex', regex: urlRegex },
			},
		],
	};
	// Only codes and cards have a dashboard URL.
	const modes = spec.dashboardSegment ? every.modes : every.modes?.slice(0, 2);
	return {
		displayName: spec.displayName,
		name: spec.name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${spec.noun} to use`,
		modes,
	};
}

export const qrCodeLocator = recordLocator({
	name: 'qrCodeId',
	displayName: 'QR Code',
	noun: 'QR code',
	searchListMethod: 'searchQrCodes',
	dashboardSegment: 'qr-codes',
});

export const cardLocator = recordLocator({
	name: 'cardId',
	displayName: 'Card',
	noun: 'card',
	searchListMethod: 'searchCards',
	dashboardSegment: 'cards',
});

export const webhookEndpointLocator = recordLocator({
	name: 'webhookEndpointId',
	displayName: 'Webhook Endpoint',
	noun: 'webhook endpoint',
	searchListMethod: 'searchWebhookEndpoints',
});

/** An operation's record: the one its locator names (the router runs an ID's items in order). */
export function recordKeyOf(locator: INodeProperties): RecordKey {
	return function (itemIndex) {
		return operationParameters(this, itemIndex, [locator]).recordId(locator.name);
	};
}
