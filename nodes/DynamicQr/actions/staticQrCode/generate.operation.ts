import { type INodeProperties, NodeOperationError } from 'n8n-workflow';

import { STATIC_QR_TYPES } from '../../qrTypes';
import type { BinaryAnswer } from '../../api';
import { imageProperties, readImageRequest } from '../image';
import { payloadProperties } from '../payload/payloadProperties';
import { getQrType, readPayload } from '../payload/read';
import { notice } from '../display';
import type { Operation } from '../run';

export const description: INodeProperties[] = [
	notice(
		'staticNotice',
		'A static code encodes its content directly: nothing is saved in the account, it has no scan statistics and cannot be changed after printing.',
	),
	...payloadProperties(STATIC_QR_TYPES, 'static'),
	...imageProperties,
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const type = getQrType(parameters);
	if (!type.static) {
		throw new NodeOperationError(
			this.getNode(),
			`Type ${type.label} cannot be a static code (item ${itemIndex})`,
			{ itemIndex, description: 'It needs the redirect of a dynamic code: use QR Code > Create.' },
		);
	}
	const payload = readPayload(parameters, type, 'static');
	const request = readImageRequest(parameters);
	const image = await run.client.request<BinaryAnswer>('POST', '/static-qr-codes', {
		body: { type: type.value, payload, ...request.query },
		binary: true,
		itemIndex,
	});
	return await request.items(this, image, `qr-static-${type.value}`, { type: type.value, payload });
};
