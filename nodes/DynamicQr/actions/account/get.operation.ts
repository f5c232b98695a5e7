import { toItems } from '../outputItems';
import type { Operation } from '../run';

export const description = [];

export const execute: Operation = async function (itemIndex, run) {
	return toItems(await run.client.getRecord('/me', itemIndex));
};
