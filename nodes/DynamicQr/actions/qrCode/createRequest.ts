import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { QrType } from '../../qrTypes';
import { apiRequest } from '../../api';
import { defaultIdempotencyKey } from '../shared/idempotency';
import { parseJsonParameter } from '../shared/values';
import { getQrType, readPayload, validatePayload } from '../payload';

/** A create as the item asks for it, checked before any request. Create and Create or Update share it. */
export interface CreateRequest {
	type: QrType;
	/** The POST body: name, type, payload, and design, folder, domain, tags when set. */
	body: IDataObject;
	/** The key the user gave; empty for the default, derived only when a create is sent. */
	idempotencyKey: string;
}

/** Reads Name, Type, the payload and Additional Fields of one item into a create. */
export function readCreateRequest(ctx: IExecuteFunctions, itemIndex: number): CreateRequest {
	const type = getQrType(ctx, itemIndex);
	const payload = readPayload(ctx, itemIndex, type);
	validatePayload(ctx, itemIndex, type, payload, 'create');

	const additional = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	const body: IDataObject = {
		// An expression may give a number (a sheet's numeric name column); the API takes text.
		name: String(ctx.getNodeParameter('name', itemIndex) ?? ''),
		type: type.value,
		payload,
	};
	const design = parseJsonParameter(ctx, additional.design ?? '{}', 'Design (JSON)', itemIndex);
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

	return { type, body, idempotencyKey: String(additional.idempotencyKey ?? '').trim() };
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
export async function createCode(
	ctx: IExecuteFunctions,
	{ body, idempotencyKey: givenKey }: CreateRequest,
	itemIndex: number,
): Promise<IDataObject> {
	// Deriving the default evaluates an expression: Create or Update skips it for codes it finds.
	const idempotencyKey = givenKey || defaultIdempotencyKey(ctx, itemIndex);
	let refusal: unknown;
	try {
		return await apiRequest(ctx, 'POST', '/qr-codes', { body, itemIndex, idempotencyKey });
	} catch (error) {
		refusal = error;
	}
	// Anything but a refusal of the tags list is the API error apiRequest built: passed on as it is.
	if (!Array.isArray(body.tags) || !refusesTags(refusal)) throw refusal;
	return await apiRequest(ctx, 'POST', '/qr-codes', {
		body: { ...body, tags: body.tags.join(', ') },
		itemIndex,
		idempotencyKey: `${idempotencyKey}-tags`,
	});
}
