import type { INodeProperties } from 'n8n-workflow';

import * as get from './get.operation';
import * as getMany from './getMany.operation';

export const operations = { get, getAll: getMany };

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['card'] } },
		options: [
			{
				name: 'Get',
				value: 'get',
				action: 'Get a card',
				description: 'Get one digital business card with its page and short link',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many cards',
				description: 'List the cards',
			},
		],
		default: 'get',
	},
	...get.description,
	...getMany.description,
];
