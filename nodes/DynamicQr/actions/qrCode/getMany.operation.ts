import { listFiltersProperty, readLimit, returnAllOrLimit } from '../listing';
import { simplifyProperty, simplifyQrCode } from '../outputItems';
import { type Operation, toItems } from '../run';
import { codeListQuery } from '../../shared/codeFilters';

export const description = [...returnAllOrLimit, listFiltersProperty, simplifyProperty];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const qs = codeListQuery(parameters.collection('filters'));
	const limit = readLimit(parameters);
	const simplify = parameters.boolean('simplify');
	const records = await run.client.all('/qr-codes', qs, limit, { itemIndex });
	return toItems(records.map((record) => simplifyQrCode(simplify, record)));
};
