import { toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import type { Operation } from '../run';

export const description = showOnlyFor('account', 'get', []);

export const execute: Operation = async function (itemIndex, run) {
	return toItems(await run.client.getRecord('/me', itemIndex));
};
