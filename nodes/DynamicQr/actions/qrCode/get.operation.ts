import type { INodeProperties } from 'n8n-workflow';

import { qrCodeLocator } from '../locators';
import { simplifyProperty, simplifyQrCode, toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import type { Operation } from '../run';

const properties: INodeProperties[] = [qrCodeLocator, simplifyProperty];

export const description = showOnlyFor('qrCode', 'get', properties);

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const simplify = parameters.boolean('simplify');
	return toItems(
		simplifyQrCode(simplify, await run.client.getRecord(`/qr-codes/${id}`, itemIndex)),
	);
};
