import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import { unwrap } from '../../api';
import { QR_TYPES } from '../../qrTypes';
import type { ParameterReader } from '../../shared/parameters';
import { collection, showOnlyFor } from '../display';
import { payloadProperties } from '../payload/payloadProperties';
import { getQrType, readPayload } from '../payload/read';
import { type ActionRun, type Operation, type RecordKey, toItems } from '../run';

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

/** Name, Type, the payload and Additional Fields of one item, checked before any request. */
export function readCreateRequest(parameters: ParameterReader) {
	const name = parameters.string('name');
	const type = getQrType(parameters);
	const payload = readPayload(parameters, type, 'create');

	const additional = parameters.collection('additionalFields', ['tags']);
	const body: IDataObject = { name, type: type.value, payload };
	const design = parameters.jsonObjectIn('additionalFields', 'design', additional.design);
	if (additional.logoUploadId) design.logo_upload_id = additional.logoUploadId;
	if (Object.keys(design).length) body.design = design;
	for (const key of ['folder', 'domain', 'tags']) if (additional[key]) body[key] = additional[key];

	return {
		type,
		body,
		// The key the user gave; empty for the default, derived only when a create is sent.
		idempotencyKey: String(additional.idempotencyKey ?? '').trim(),
		// Create or Update's; left out unless the user added it: then each code is kept as it is.
		paused: additional.paused as boolean | undefined,
	};
}

/**
 * The same for every attempt at one item of one node run of one workflow run (Retry On Fail, the
 * client's retries, Retry of the execution), else different; a first execution's key is unchanged.
 */
function defaultIdempotencyKey(ctx: IExecuteFunctions, itemIndex: number): string {
	// The first execution's id: n8n 1.x and 2.x save the node's context with the execution, and a
	// Retry continues from it (custom data too, but n8n 1.x offers it only to expressions, 10 keys).
	const context = ctx.getContext('node');
	if (typeof context.runId !== 'string' || !context.runId) context.runId = ctx.getExecutionId();
	const runIndex = ctx.evaluateExpression('{{ $runIndex }}', itemIndex);
	const parts = [ctx.getWorkflow().id, context.runId, ctx.getNode().id, runIndex, itemIndex];
	return `n8n-${createHash('sha256').update(parts.join(':')).digest('hex').slice(0, 40)}`;
}

export async function createCode(
	{ ctx, client }: ActionRun,
	{ body, idempotencyKey: given }: { body: IDataObject; idempotencyKey: string },
	itemIndex: number,
): Promise<IDataObject> {
	// Deriving the default evaluates an expression: Create or Update skips it for codes it finds.
	const idempotencyKey = given || defaultIdempotencyKey(ctx, itemIndex);
	return unwrap(await client.request('POST', '/qr-codes', { body, itemIndex, idempotencyKey }));
}

export const execute: Operation = async function (itemIndex, run, parameters) {
	return toItems(await createCode(run, readCreateRequest(parameters), itemIndex));
};
