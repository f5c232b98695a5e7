import { createHash } from 'crypto';
import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unwrap } from '../../api';
import type { ParameterReader } from '../../shared/parameters';
import { getQrType, readPayload } from '../payload/read';
import type { ActionRun } from '../run';

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
		// Additional Fields as read, for what an operation adds to them (Create or Update's Paused).
		additional,
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
