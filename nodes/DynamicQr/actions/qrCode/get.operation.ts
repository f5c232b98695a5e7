import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { getRecordId, qrCodeLocator } from '../shared/locators';
import { simplifyProperty, simplifyQrCode, toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

const properties: INodeProperties[] = [qrCodeLocator, simplifyProperty];

export const description = showOnlyFor('qrCode', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'qrCodeId', itemIndex);
	const answer = await apiRequest(this, 'GET', `/qr-codes/${id}`, { itemIndex });
	return toItems(simplifyQrCode(this, itemIndex, unwrap(answer)));
}
