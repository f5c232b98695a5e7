import type { INodeProperties } from 'n8n-workflow';

import * as getMany from './getMany.operation';

export const operations = { getAll: getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['lead'] } },
		options: [
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many leads',
				description: 'List the contacts shared on a card, newest first',
			},
		],
		default: 'getAll',
	},
	...getMany.description,
];
