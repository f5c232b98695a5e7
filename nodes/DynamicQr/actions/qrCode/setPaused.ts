import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { getRecordId } from '../shared/locators';
import { toItems } from '../shared/output';

/** Pause and Resume differ only in the value of `paused`. */
export async function setPaused(
	ctx: IExecuteFunctions,
	itemIndex: number,
	paused: boolean,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(ctx, 'qrCodeId', itemIndex);
	const answer = await apiRequest(ctx, 'PATCH', `/qr-codes/${id}`, { body: { paused }, itemIndex });
	return toItems(unwrap(answer));
}
