import type { BinaryAnswer } from '../../api';
import { qrCodeLocator } from '../locators';
import { imageProperties, readImageRequest } from '../image';
import type { Operation } from '../run';

export const description = [qrCodeLocator, ...imageProperties];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const request = readImageRequest(parameters);
	// The item keeps the code's id and name next to the file.
	const code = await run.client.getRecord(`/qr-codes/${id}`, itemIndex);
	const image = await run.client.request<BinaryAnswer>('GET', `/qr-codes/${id}/image`, {
		qs: request.query,
		binary: true,
		itemIndex,
	});
	const json = { id: code.id, name: code.name, short_url: code.short_url };
	return await request.items(this, image, `qr-${id}`, json);
};
