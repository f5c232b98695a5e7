import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import type { ActionRun } from '../run';

export const description = showOnlyFor('account', 'get', []);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	return toItems(await run.client.getRecord('/me', itemIndex));
}
