import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asObject } from '../api';
import { filterOut, readFilters } from './filters';
import { missingSecretWarning, signingSecret } from './secret';
import { describeFailure, isValidSecret, verifySignature } from './signature';
import { isRepeatDelivery } from './state';

/**
 * One delivery, in order: verify the signature over the raw bytes, parse the event, apply the
 * filters, drop repeats, start the workflow. Only a verified, new, wanted event starts it.
 */

/** 401 without starting anything; the reason goes to the debug log only. */
function refuse(ctx: IWebhookFunctions, why: string): IWebhookResponseData {
	ctx.logger.debug(`Dynamic QR Trigger: delivery refused: ${why}`);
	ctx.getResponseObject().status(401).json({ message: 'Webhook signature verification failed' });
	return { noWebhookResponse: true };
}

/** Acknowledged, but the workflow is not started. */
const skipped = (reason: string): IWebhookResponseData => ({
	webhookResponse: { received: true, started: false, reason },
});

/** The request body exactly as received (n8n fills `rawBody` late for some requests). */
async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer> {
	const req = ctx.getRequestObject();
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') {
		await req.readRawBody();
	}
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);
}

function parseEvent(raw: Buffer): IDataObject | undefined {
	try {
		return asObject(JSON.parse(raw.toString('utf8')));
	} catch {
		return undefined;
	}
}

export async function receiveDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const secret = await signingSecret(ctx);
	// Fail closed: without a usable secret no delivery can be trusted.
	if (!isValidSecret(secret)) {
		ctx.logger.warn(missingSecretWarning(ctx));
		return refuse(ctx, 'no valid signing secret');
	}

	const raw = await rawBodyOf(ctx);
	const nowMs = Date.now();
	const result = verifySignature(
		secret,
		ctx.getRequestObject().headers,
		raw,
		Math.floor(nowMs / 1000),
	);
	if (!result.valid) return refuse(ctx, describeFailure(result.reason));

	const event = parseEvent(raw);
	if (!event) {
		ctx.logger.warn(
			'Dynamic QR Trigger: a correctly signed delivery had a body that is not a JSON object',
		);
		ctx.getResponseObject().status(400).json({ message: 'The body is not a JSON event' });
		return { noWebhookResponse: true };
	}

	const type = String(event.type ?? '');
	const skip = filterOut(type, asObject(event.data), readFilters(ctx));
	if (skip) return skipped(skip);
	if (isRepeatDelivery(ctx, result.id, nowMs)) return skipped('duplicate delivery');

	// Answered here, as n8n would ("Workflow was started"), so that n8n saves the delivery
	// record at once: when n8n answers itself, it starts the workflow first, and that resets
	// the flag that tells it the static data changed, so the record would never be saved.
	ctx.getResponseObject().status(200).json({ message: 'Workflow was started' });
	return {
		noWebhookResponse: true,
		workflowData: [
			[
				{
					json: {
						id: event.id ?? result.id,
						type,
						created_at: event.created_at ?? null,
						data: (event.data ?? null) as IDataObject,
						webhook_id: result.id,
						webhook_timestamp: result.timestamp,
					},
				},
			],
		],
	};
}
