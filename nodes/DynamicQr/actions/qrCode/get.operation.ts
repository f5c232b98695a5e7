import { qrCodeLocator } from '../locators';
import { simplifyProperty, simplifyQrCode } from '../outputItems';
import { type Operation, toItems } from '../run';

export const description = [qrCodeLocator, simplifyProperty];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const simplify = parameters.boolean('simplify');
	const record = await run.client.getRecord(`/qr-codes/${id}`, itemIndex);
	return toItems(simplifyQrCode(simplify, record));
};
