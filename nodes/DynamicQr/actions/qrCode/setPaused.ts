import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { operationParameters } from '../shared/parameters';
import { toItems } from '../shared/output';
import { changedRecord } from './changedRecord';

/** Pause and Resume differ only in the value of `paused`. */
export async function setPaused(
	ctx: IExecuteFunctions,
	itemIndex: number,
	description: INodeProperties[],
	paused: boolean,
): Promise<INodeExecutionData[]> {
	const id = operationParameters(ctx, itemIndex, description).recordId('qrCodeId');
	return toItems(await changedRecord(ctx, id, { paused }, itemIndex));
}
