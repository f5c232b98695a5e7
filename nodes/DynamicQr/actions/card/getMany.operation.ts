import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { readLimit, returnAllOrLimit } from '../shared/listing';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import { operationParameters } from '../shared/parameters';
import type { ActionRun } from '../shared/run';

export const description = showOnlyFor('card', 'getAll', returnAllOrLimit);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	return toItems(
		await run.client.all(
			'/cards',
			{},
			readLimit(operationParameters(this, itemIndex, description)),
			{ itemIndex },
		),
	);
}
