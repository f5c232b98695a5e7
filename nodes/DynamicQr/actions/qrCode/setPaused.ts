import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { getRecordId } from '../shared/locators';
import { toItems } from '../shared/output';
import { changedRecord } from './changedRecord';

/** Pause and Resume differ only in the value of `paused`. */
export async function setPaused(
	ctx: IExecuteFunctions,
	itemIndex: number,
	paused: boolean,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(ctx, 'qrCodeId', itemIndex);
	return toItems(await changedRecord(ctx, id, { paused }, itemIndex));
}
