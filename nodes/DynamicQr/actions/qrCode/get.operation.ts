import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { qrCodeLocator } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { simplifyProperty, simplifyQrCode, toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

const properties: INodeProperties[] = [qrCodeLocator, simplifyProperty];

export const description = showOnlyFor('qrCode', 'get', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const parameters = operationParameters(this, itemIndex, description);
	const id = parameters.recordId('qrCodeId');
	const simplify = parameters.boolean('simplify');
	const answer = await apiRequest(this, 'GET', `/qr-codes/${id}`, { itemIndex });
	return toItems(simplifyQrCode(simplify, unwrap(answer)));
}
