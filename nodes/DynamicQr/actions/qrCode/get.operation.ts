import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest } from '../../transport';
import {
	getRecordId,
	qrCodeLocator,
	simplifyProperty,
	simplifyQrCode,
	toItems,
	unwrap,
} from '../common';
import { showOnlyFor } from '../display';

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
