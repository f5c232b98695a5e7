import type { INodeProperties } from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';
import { collection, showOnlyFor } from '../display';
import { payloadProperties } from '../payload/payloadProperties';
import { createCode, readCreateRequest } from './createRequest';
import { type Operation, type RecordKey, toItems } from '../run';

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
	collection('Additional Fields', 'additionalFields', 'Add Field', [
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
			builderHint: {
				propertyHint:
					'Usually leave empty: a key is derived from the run and the item, so retries never make a second code. Set it only to a stable ID per record, such as a sheet row ID or a CRM record ID, so that a later run within 24 hours gets the same code back.',
			},
			placeholder: 'e.g. {{ $json.row_id }}',
			description:
				'A key unique to this code, such as a sheet row ID: a create repeated with the same key (within 24 hours) answers the first code instead of making a second one. Leave empty to derive it from the run and the item (the same when n8n retries a failed execution).',
		},
		{
			displayName: 'Logo Upload ID',
			name: 'logoUploadId',
			type: 'string',
			default: '',
			description: 'The ID answered by Logo > Upload; sent as design.logo_upload_id',
		},
		{
			displayName: 'Paused',
			name: 'paused',
			type: 'boolean',
			default: false,
			description:
				'Whether each code is to be paused (on) or active (off); leave it out to keep every code as it is',
			displayOptions: { show: { '/operation': ['upsert'] } },
		},
		{
			displayName: 'Tags',
			name: 'tags',
			type: 'string',
			default: '',
			placeholder: 'e.g. spring, print',
			description: 'Comma-separated tags',
		},
	]),
];

export const description = showOnlyFor('qrCode', ['create', 'upsert'], properties);

/** Items with one Idempotency Key make one code: the first creates it, the others get it back. */
export const recordKey: RecordKey = (_itemIndex, _run, parameters) =>
	String(parameters.collection('additionalFields', ['tags']).idempotencyKey ?? '').trim() ||
	undefined;

export const execute: Operation = async function (itemIndex, run, parameters) {
	return toItems(await createCode(run, readCreateRequest(parameters), itemIndex));
};
