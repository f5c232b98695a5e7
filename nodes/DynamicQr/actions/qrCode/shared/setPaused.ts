import type { INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { operationParameters } from '../../shared/parameters';
import { toItems } from '../../shared/output';
import type { ActionRun } from '../../shared/run';
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
