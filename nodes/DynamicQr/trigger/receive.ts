import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asObject } from '../api';
import { filterOut, readFilters } from './filters';
import { missingSecretWarning, signingSecret } from './secret';
import { describeFailure, verifySignature } from './signature';
import { resync, RESYNC_TYPE, scheduleResync } from './resync';
import { checkDelivery } from './state';
import { isValidSecret } from '../shared/secrets';

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
	if (type === RESYNC_TYPE) {
		resync(ctx, secret, event.round);
		return skipped('resync of the delivery record');
	}
	const skip = filterOut(type, asObject(event.data), readFilters(ctx));
	if (skip) return skipped(skip);
	const delivery = checkDelivery(ctx, result.id, nowMs);
	if (delivery.repeat) return skipped('duplicate delivery');

	// n8n answers ("Workflow was started"): n8n 2.x does so once the execution exists, so a
	// processor stopped in between leaves the delivery unanswered and the service sends it again.
	// Once n8n has started the workflow (or answered 2xx), this process treats the id as started.
	const response = ctx.getResponseObject();
	response.once('close', () => {
		const ok = response.writableFinished && response.statusCode < 300;
		delivery.answered(ok);
		if (ok) scheduleResync(ctx, secret);
	});
	return {
		// n8n 2.x reads this after it has started the execution and before it saves the static data.
		get webhookResponse() {
			delivery.started();
			return { message: 'Workflow was started' };
		},
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
