import type { INodeProperties } from 'n8n-workflow';

import { qrCodeLocator } from '../locators';
import { simplifyProperty, simplifyQrCode, toItems } from '../outputItems';
import type { Operation } from '../run';

export const description: INodeProperties[] = [qrCodeLocator, simplifyProperty];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const simplify = parameters.boolean('simplify');
	return toItems(
		simplifyQrCode(simplify, await run.client.getRecord(`/qr-codes/${id}`, itemIndex)),
	);
};
