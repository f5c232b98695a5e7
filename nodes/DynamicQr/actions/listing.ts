import type { INodeProperties } from 'n8n-workflow';

import { collection } from './display';
import { codeFilterOptions } from '../shared/codeFilters';
import type { ParameterReader } from '../shared/parameters';
import { type Operation, toItems } from './run';

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

export const filtersProperty = (options: INodeProperties[]) =>
	collection('Filters', 'filters', 'Add Filter', options);

/** The filters the code list takes (Get Many, Update Many, Get Scan Report's codes by filters). */
export const listFiltersProperty = filtersProperty(codeFilterOptions('list'));

/** The most records to list: undefined for Return All. */
export const readLimit = (parameters: ParameterReader) =>
	parameters.boolean('returnAll') ? undefined : parameters.number('limit');

/** A Get Many of a whole list with Return All / Limit and nothing else. */
export function listOperation(path: string) {
	const execute: Operation = async function (itemIndex, run, parameters) {
		return toItems(await run.client.all(path, {}, readLimit(parameters), { itemIndex }));
	};
	return { description: returnAllOrLimit, execute };
}
