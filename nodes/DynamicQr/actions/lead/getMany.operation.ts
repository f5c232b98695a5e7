import { dateProperty } from '../display';
import { filtersProperty, readLimit, returnAllOrLimit } from '../listing';
import { cardLocator } from '../locators';
import { type Operation, toItems } from '../run';

export const description = [
	cardLocator,
	...returnAllOrLimit,
	filtersProperty([dateProperty('Since', 'Only leads shared after this moment')]),
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const path = `/cards/${parameters.recordId('cardId')}/leads`;
	const since = parameters.collection('filters').since as string | undefined;
	// Leads at or before Since are left out whatever the service does with `since` (client.since).
	const sinceMs = since ? Date.parse(since) : undefined;
	return toItems(await run.client.since(path, sinceMs, readLimit(parameters), { itemIndex }));
};
