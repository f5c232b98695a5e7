import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { qrCodeLocator, recordKeyOf } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { simplifyProperty, simplifyQrCode, toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import type { ActionRun } from '../shared/run';

const properties: INodeProperties[] = [qrCodeLocator, simplifyProperty];

export const description = showOnlyFor('qrCode', 'get', properties);

export const recordKey = recordKeyOf(qrCodeLocator);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	const parameters = operationParameters(this, itemIndex, description);
	const id = parameters.recordId('qrCodeId');
	const simplify = parameters.boolean('simplify');
	return toItems(
		simplifyQrCode(simplify, await run.client.getRecord(`/qr-codes/${id}`, itemIndex)),
	);
}
