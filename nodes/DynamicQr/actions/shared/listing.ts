import type { INodeProperties } from 'n8n-workflow';
import type { ParameterReader } from '../../shared/parameters';

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

/** The most records to list: undefined for Return All. */
export function readLimit(parameters: ParameterReader): number | undefined {
	return parameters.boolean('returnAll') ? undefined : parameters.number('limit');
}
