import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

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

/** Names a service may give the upload's id; the reference shows only that there is one. */
const ID_FIELDS = ['id', 'upload_id', 'logo_upload_id'];

/** The upload record with its id as `id`, whatever the service called it. */
function withId(record: IDataObject): IDataObject {
	const field = ID_FIELDS.find((name) => record[name] !== undefined && record[name] !== null);
	return field === undefined || field === 'id' ? record : { id: record[field], ...record };
}

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
	return toItems(withId(unwrap(answer)));
}
