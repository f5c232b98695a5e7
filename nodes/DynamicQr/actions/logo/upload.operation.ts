import { NodeOperationError } from 'n8n-workflow';

import { multipartBody, uploadRecord } from '../../api';
import { binaryFieldName, binaryFieldProperty } from '../operationParameters';
import { type Operation, toItems } from '../run';
import { describeValue } from '../../shared/parameters';

export const description = [
	binaryFieldProperty(
		'Input Binary Field',
		'The name of the input binary field holding the logo (PNG, JPEG or SVG)',
	),
];

/** The logo images the upload takes (the field's hint): PNG, JPEG, SVG; never a header's CR/LF. */
const LOGO_TYPES = /^image\/(png|jpeg|jpg|pjpeg|svg\+xml)$/i;

export const execute: Operation = async function (itemIndex, run, parameters) {
	const propertyName = binaryFieldName(parameters);
	const file = this.helpers.assertBinaryData(itemIndex, propertyName);
	const mimeType = String(file.mimeType ?? '').trim();
	if (!LOGO_TYPES.test(mimeType)) {
		throw new NodeOperationError(
			this.getNode(),
			`The file in "${propertyName}" of item ${itemIndex} is not a logo image: its MIME type is ${describeValue(file.mimeType)}`,
			{
				itemIndex,
				description:
					'Upload a PNG, JPEG or SVG image (MIME type image/png, image/jpeg or image/svg+xml); nothing was sent to the API.',
			},
		);
	}
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const fileName = file.fileName ?? `logo.${file.fileExtension ?? 'png'}`;
	const { body, contentType } = multipartBody('file', fileName, mimeType, data);
	const headers = { 'Content-Type': contentType };
	const answer = await run.client.request('POST', '/uploads/logos', { body, headers, itemIndex });
	return toItems(uploadRecord(answer));
};
