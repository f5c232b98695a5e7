import type { INodeProperties, INodePropertyModeTypeOptions } from 'n8n-workflow';

import { ID_CHARACTERS, ID_PATTERN, ID_RULE } from '../api';

/** By list (methods/: searchQrCodes for qrCodeId), by ID, by dashboard URL (`dashboardSegment`). */
function recordLocator(name: string, noun: string, dashboardSegment?: string): INodeProperties {
	const searchListMethod = `search${name[0].toUpperCase()}${name.slice(1, -'Id'.length)}s`;
	const regex = `^https?://\\S+/${dashboardSegment}/(${ID_CHARACTERS})/?(?:[?#]\\S*)?$`;
	const locator: INodeProperties = {
		displayName: noun.replace(/\b\w/g, (first) => first.toUpperCase()),
		name,
		type: 'resourceLocator',
		default: { mode: 'list', value: '' },
		required: true,
		description: `The ${noun} to use`,
		modes: [
			{
				displayName: 'From List',
				name: 'list',
				type: 'list',
				typeOptions: { searchListMethod, searchable: true } as INodePropertyModeTypeOptions,
			},
			{
				displayName: 'By ID',
				name: 'id',
				type: 'string',
				placeholder: 'e.g. a1B2c3D4e5F6',
				validation: [
					{
						type: 'regex',
						properties: { regex: ID_PATTERN, errorMessage: `A ${noun} ID has ${ID_RULE}` },
					},
				],
			},
			{
				displayName: 'By URL',
				name: 'url',
				type: 'string',
				placeholder: `e.g. https://qr.example.com/${dashboardSegment}/a1B2c3D4e5F6`,
				validation: [
					{
						type: 'regex',
						properties: {
							regex,
							errorMessage: `Paste the dashboard URL of the ${noun}, ending in /${dashboardSegment}/<ID>`,
						},
					},
				],
				extractValue: { type: 'regex', regex },
			},
		],
	};
	// Only codes and cards have a dashboard URL.
	return dashboardSegment ? locator : { ...locator, modes: locator.modes?.slice(0, 2) };
}

export const qrCodeLocator = recordLocator('qrCodeId', 'QR code', 'qr-codes');
export const cardLocator = recordLocator('cardId', 'card', 'cards');
export const webhookEndpointLocator = recordLocator('webhookEndpointId', 'webhook endpoint');
