import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import { apiRequest, multipartBody, unwrap } from '../../api';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';

const properties: INodeProperties[] = [
	{
		displayName: 'Input Binary Field',
		name: 'binaryPropertyName',
		type: 'string',
		default: 'data',
		required: true,
		hint: 'The name of the input binary field holding the logo (PNG, JPEG or SVG)',
	},
];

export const description = showOnlyFor('logo', 'upload', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const propertyName = this.getNodeParameter('binaryPropertyName', itemIndex) as string;
	const file = this.helpers.assertBinaryData(itemIndex, propertyName);
	const data = await this.helpers.getBinaryDataBuffer(itemIndex, propertyName);
	const { body, contentType } = multipartBody(
		'file',
		file.fileName ?? `logo.${file.fileExtension ?? 'png'}`,
		file.mimeType,
		data,
	);
	const answer = await apiRequest(this, 'POST', '/uploads/logos', {
		body,
		headers: { 'Content-Type': contentType },
		itemIndex,
	});
	return toItems(unwrap(answer));
}
