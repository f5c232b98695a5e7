import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

/** Return All / Limit (default 50), the n8n way of listing. */
export const returnAllOrLimit: INodeProperties[] = [
	{
		displayName: 'Return All',
		name: 'returnAll',
		type: 'boolean',
		default: false,
		description: 'Whether to return all results or only up to a given limit',
	},
	{
		displayName: 'Limit',
		name: 'limit',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 50,
		description: 'Max number of results to return',
		displayOptions: { show: { returnAll: [false] } },
	},
];

export function readLimit(ctx: IExecuteFunctions, itemIndex: number): number | undefined {
	return ctx.getNodeParameter('returnAll', itemIndex, false)
		? undefined
		: (ctx.getNodeParameter('limit', itemIndex, 50) as number);
}
