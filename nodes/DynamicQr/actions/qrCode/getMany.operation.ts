import type { INodeProperties } from 'n8n-workflow';

import { readLimit, returnAllOrLimit } from '../listing';
import { simplifyProperty, simplifyQrCode, toItems } from '../outputItems';
import type { Operation } from '../run';
import { codeListQuery } from '../../shared/codeFilters';
import { listFiltersProperty } from './listFilters';

export const description: INodeProperties[] = [
	...returnAllOrLimit,
	listFiltersProperty,
	simplifyProperty,
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const filters = parameters.collection('filters');
	const limit = readLimit(parameters);
	const simplify = parameters.boolean('simplify');
	const qs = codeListQuery(filters);
	const records = await run.client.all('/qr-codes', qs, limit, { itemIndex });
	return toItems(records.map((record) => simplifyQrCode(simplify, record)));
};
