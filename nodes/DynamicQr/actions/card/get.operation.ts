import { cardLocator } from '../locators';
import { type Operation, toItems } from '../run';

export const description = [cardLocator];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('cardId');
	return toItems(await run.client.getRecord(`/cards/${id}`, itemIndex));
};
