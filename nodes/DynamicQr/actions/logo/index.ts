import type { INodeProperties } from 'n8n-workflow';

import * as upload from './upload.operation';

export const operations = { upload };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['logo'] } },
		options: [
			{
				name: 'Upload',
				value: 'upload',
				action: 'Upload a logo',
				description:
					'Upload a logo image; use the answered ID as Logo Upload ID when creating codes',
			},
		],
		default: 'upload',
	},
	...upload.description,
];
