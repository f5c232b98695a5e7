import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { operationParameters } from '../operationParameters';
import { toItems } from '../outputItems';
import type { ActionRun } from '../run';
import { changedRecord } from './changedRecord';

/** Pause and Resume differ only in the value of `paused`. */
export async function setPaused(
	run: ActionRun,
	itemIndex: number,
	description: INodeProperties[],
	paused: boolean,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(run.ctx, itemIndex, description).recordId('qrCodeId');
	return toItems(await changedRecord(run, id, { paused }, itemIndex));
}
