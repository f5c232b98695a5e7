import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { cardLocator, recordKeyOf } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import type { ActionRun } from '../shared/run';

export const description = showOnlyFor('card', 'get', [cardLocator]);

export const recordKey = recordKeyOf(cardLocator);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(this, itemIndex, description).recordId('cardId');
	return toItems(await run.client.getRecord(`/cards/${id}`, itemIndex));
}
