import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { cardLocator, recordKeyOf } from '../locators';
import { operationParameters } from '../operationParameters';
import { toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import type { ActionRun } from '../run';

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
