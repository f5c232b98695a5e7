import type { IDataObject } from 'n8n-workflow';

import { unwrap } from '../../api';
import type { ParameterReader } from '../../shared/parameters';
import { getQrType, readPayload } from '../payload/read';
import { validatePayload } from '../payload/validate';
import { defaultIdempotencyKey } from '../idempotency';
import type { ActionRun } from '../run';

/** Name, Type, the payload and Additional Fields of one item, checked before any request. */
export function readCreateRequest(parameters: ParameterReader) {
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

	return {
		type,
		body,
		// The key the user gave; empty for the default, derived only when a create is sent.
		idempotencyKey: String(additional.idempotencyKey ?? '').trim(),
		// Additional Fields as read, for what an operation adds to them (Create or Update's Paused).
		additional,
	};
}

export async function createCode(
	{ ctx, client }: ActionRun,
	{ body, idempotencyKey }: { body: IDataObject; idempotencyKey: string },
	itemIndex: number,
): Promise<IDataObject> {
	// Deriving the default evaluates an expression: Create or Update skips it for codes it finds.
	const key = idempotencyKey || defaultIdempotencyKey(ctx, itemIndex);
	return unwrap(
		await client.request('POST', '/qr-codes', { body, itemIndex, idempotencyKey: key }),
	);
}
