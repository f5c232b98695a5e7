import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';
import { apiRequest, unwrap } from '../../api';
import { defaultIdempotencyKey } from '../shared/idempotency';
import { toItems } from '../shared/output';
import { parseJsonParameter } from '../shared/values';
import { showOnlyFor } from '../shared/display';
import { getQrType, payloadProperties, readPayload, validatePayload } from '../payload';

const properties: INodeProperties[] = [
	{
		displayName: 'Name',
		name: 'name',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. Spring Flyer 2030',
		description: 'Name of the code in the dashboard',
	},
	...payloadProperties(QR_TYPES, 'create'),
	{
		displayName: 'Additional Fields',
		name: 'additionalFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Design (JSON)',
				name: 'design',
				type: 'json',
				default: '{}',
				description: 'Further design settings as a JSON object; Logo Upload ID is added to it',
			},
			{
				displayName: 'Domain',
				name: 'domain',
				type: 'string',
				default: '',
				placeholder: 'e.g. qr.example.com',
				description:
					'A redirect domain the workspace may use; leave empty for the standard short domain. It cannot be changed later.',
			},
			{
				displayName: 'Folder',
				name: 'folder',
				type: 'string',
				default: '',
				placeholder: 'e.g. Flyers',
				description: 'Name of the folder to put the code in',
			},
			{
				displayName: 'Idempotency Key',
				name: 'idempotencyKey',
				type: 'string',
				default: '',
				placeholder: 'e.g. {{ $json.row_id }}',
				description:
					'A key unique to this code, such as a sheet row ID: a create repeated with the same key (within 24 hours) answers the first code instead of making a second one. Leave empty to derive it from the execution and the item.',
			},
			{
				displayName: 'Logo Upload ID',
				name: 'logoUploadId',
				type: 'string',
				default: '',
				description: 'The ID answered by Logo > Upload; sent as design.logo_upload_id',
			},
			{
				displayName: 'Tags',
				name: 'tags',
				type: 'string',
				default: '',
				placeholder: 'e.g. spring, print',
				description: 'Comma-separated tags',
			},
		],
	},
];

export const description = showOnlyFor('qrCode', 'create', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const type = getQrType(this, itemIndex);
	const payload = readPayload(this, itemIndex, type);
	validatePayload(this, itemIndex, type, payload, 'create');

	const additional = this.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		name: this.getNodeParameter('name', itemIndex) as string,
		type: type.value,
		payload,
	};
	const design = parseJsonParameter(this, additional.design ?? '{}', 'Design (JSON)', itemIndex);
	if (additional.logoUploadId) design.logo_upload_id = additional.logoUploadId;
	if (Object.keys(design).length) body.design = design;
	if (additional.folder) body.folder = additional.folder;
	if (additional.domain) body.domain = additional.domain;
	if (additional.tags) {
		body.tags = String(additional.tags)
			.split(',')
			.map((tag) => tag.trim())
			.filter(Boolean);
	}

	const idempotencyKey =
		String(additional.idempotencyKey ?? '').trim() || defaultIdempotencyKey(this, itemIndex);
	const answer = await apiRequest(this, 'POST', '/qr-codes', { body, itemIndex, idempotencyKey });
	return toItems(unwrap(answer));
}
