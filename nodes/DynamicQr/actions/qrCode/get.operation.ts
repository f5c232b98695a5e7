import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { qrCodeLocator, recordKeyOf } from '../locators';
import { operationParameters } from '../operationParameters';
import { simplifyProperty, simplifyQrCode, toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import type { ActionRun } from '../run';

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
