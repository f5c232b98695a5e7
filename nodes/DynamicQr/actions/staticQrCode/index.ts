import type { INodeProperties } from 'n8n-workflow';

import * as generate from './generate.operation';

export const operations = { generate };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['staticQrCode'] } },
		options: [
			{
				name: 'Generate',
				value: 'generate',
				action: 'Generate a static QR code image',
				description: 'Make a QR image that encodes the content itself; nothing is saved',
				builderHint: {
					propertyHint:
						'The image holds the content itself: it cannot be re-pointed, paused or counted later. Use QR Code Create for a code to manage after printing.',
				},
			},
		],
		default: 'generate',
	},
	...generate.description,
];
