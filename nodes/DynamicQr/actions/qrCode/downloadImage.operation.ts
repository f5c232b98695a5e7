import type { INodeProperties } from 'n8n-workflow';

import type { BinaryAnswer } from '../../api';
import { qrCodeLocator } from '../locators';
import { imageProperties, readImageRequest, imageItems } from '../image';
import type { Operation } from '../run';

export const description: INodeProperties[] = [qrCodeLocator, ...imageProperties];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const request = readImageRequest(parameters);
	const { format, size } = request;
	// The item keeps the code's id and name next to the file.
	const code = await run.client.getRecord(`/qr-codes/${id}`, itemIndex);
	const image = await run.client.request<BinaryAnswer>('GET', `/qr-codes/${id}/image`, {
		qs: { format, ...size },
		binary: true,
		itemIndex,
	});
	const json = { id: code.id, name: code.name, short_url: code.short_url, format };
	return await imageItems(this, request, image, `qr-${id}`, json, itemIndex);
};
