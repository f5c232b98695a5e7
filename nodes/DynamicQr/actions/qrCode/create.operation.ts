import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';
import { apiRequest, unwrap } from '../../api';
import { defaultIdempotencyKey, headerSafeKey } from '../shared/idempotency';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import { operationParameters } from '../shared/parameters';
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
	const parameters = operationParameters(this, itemIndex, description);
	const name = parameters.string('name');
	const type = getQrType(parameters);
	const payload = readPayload(parameters, type);
	validatePayload(parameters, type, payload, 'create');

	const additional = parameters.collection('additionalFields', ['tags']);
	const body: IDataObject = { name, type: type.value, payload };
	const design = parameters.jsonObjectIn('additionalFields', 'design', additional.design);
	if (additional.logoUploadId) design.logo_upload_id = additional.logoUploadId;
	if (Object.keys(design).length) body.design = design;
	if (additional.folder) body.folder = additional.folder;
	if (additional.domain) body.domain = additional.domain;
	if (additional.tags) body.tags = additional.tags;

	const idempotencyKey =
		String(additional.idempotencyKey ?? '').trim() || defaultIdempotencyKey(this, itemIndex);
	return toItems(unwrap(await createCode(this, body, itemIndex, idempotencyKey)));
}

/** Whether an API error is a 422 about `tags`. */
function refusesTags(error: unknown): boolean {
	const { httpCode, message } = (error ?? {}) as { httpCode?: unknown; message?: unknown };
	return String(httpCode) === '422' && /\btags:/.test(String(message));
}

/**
 * POST /qr-codes. The reference does not show the type of `tags`: they go as a list and, when the
 * service refuses the list, once more as one comma-separated string, under a key of its own (a
 * service may remember the refused request under the first key).
 */
async function createCode(
	ctx: IExecuteFunctions,
	body: IDataObject,
	itemIndex: number,
	idempotencyKey: string,
): Promise<IDataObject> {
	let refusal: unknown;
	try {
		return await apiRequest(ctx, 'POST', '/qr-codes', {
			body,
			itemIndex,
			idempotencyKey: headerSafeKey(idempotencyKey),
		});
	} catch (error) {
		refusal = error;
	}
	// Anything but a refusal of the tags list is the API error apiRequest built: passed on as it is.
	if (!Array.isArray(body.tags) || !refusesTags(refusal)) throw refusal;
	return await apiRequest(ctx, 'POST', '/qr-codes', {
		body: { ...body, tags: body.tags.join(', ') },
		itemIndex,
		idempotencyKey: headerSafeKey(`${idempotencyKey}-tags`),
	});
}
