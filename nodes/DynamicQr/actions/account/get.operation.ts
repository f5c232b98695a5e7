import { type Operation, toItems } from '../run';

export const description = [];

export const execute: Operation = async function (itemIndex, run) {
	return toItems(await run.client.getRecord('/me', itemIndex));
};
