import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asObject, eventQrCodeId } from '../api';
import { answer } from './answers';
import { filterOut, readFilters } from './filters';
import { checkScanMilestone } from './scanMilestones';
import { missingSecretWarning, signingSecret } from './secret';
import { describeFailure, verifySignature } from './signature';
import { resync, RESYNC_TYPE, scheduleResync } from './resync';
import { checkDelivery } from './state';

/** The request body exactly as received (n8n fills `rawBody` late for some requests). */
async function rawBodyOf(ctx: IWebhookFunctions): Promise<Buffer> {
	const req = ctx.getRequestObject();
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	return Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);
}

function parseEvent(raw: Buffer): IDataObject | undefined {
	try {
		return asObject(JSON.parse(raw.toString('utf8')));
	} catch {
		return undefined;
	}
}

/**
 * The delivery's signature checked. A kept dashboard secret that matches no signature is read
 * again: the user may have changed it in n8n.
 */
async function checkSignature(ctx: IWebhookFunctions, raw: Buffer, nowMs: number) {
	const check = async (reread: boolean) => {
		const { secret, kept } = await signingSecret(ctx, reread);
		const headers = ctx.getRequestObject().headers;
		return { secret, kept, result: verifySignature(secret, headers, raw, nowMs / 1000) };
	};
	const first = await check(false);
	const mismatch = !first.result.valid && first.result.reason === 'no_matching_signature';
	return first.kept && mismatch ? await check(true) : first;
}

/**
 * One delivery: verify the signature over the raw bytes, parse the event, apply the filters (with
 * scan milestones, read the code's count), drop repeats, start the workflow.
 */
export async function receiveDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const raw = await rawBodyOf(ctx);
	const nowMs = Date.now();
	const { secret, result } = await checkSignature(ctx, raw, nowMs);
	if (!result.valid && result.reason === 'invalid_secret') {
		// Fail closed: without a usable secret no delivery can be trusted.
		ctx.logger.warn(missingSecretWarning(ctx));
		return answer(ctx, { kind: 'refused', why: 'no valid signing secret' });
	}
	if (!result.valid) return answer(ctx, { kind: 'refused', why: describeFailure(result.reason) });

	const event = parseEvent(raw);
	if (!event) return answer(ctx, { kind: 'unreadable' });
	const type = String(event.type ?? '');
	if (type === RESYNC_TYPE) {
		resync(ctx, secret, event.round);
		return answer(ctx, { kind: 'skipped', reason: 'resync of the delivery record' });
	}
	const data = asObject(event.data);
	const filters = readFilters(ctx);
	const skip = filterOut(type, data, filters);
	if (skip) return answer(ctx, { kind: 'skipped', reason: skip });
	const milestone =
		type === 'scan.created' && filters.milestones.length > 0
			? await checkScanMilestone(ctx, filters, eventQrCodeId(type, data))
			: undefined;
	if (milestone && milestone.kind !== 'claimed') return answer(ctx, milestone);
	const claim = milestone?.claim;
	const delivery = checkDelivery(ctx, result.id, nowMs);
	if (delivery.repeat) {
		claim?.answered(false);
		return answer(ctx, { kind: 'skipped', reason: 'duplicate delivery' });
	}

	// The answer's end settles the id and the claim: a delivery n8n could not start (not 2xx)
	// is forgotten, so the service's retry starts it (docs/n8n-behaviours.md, 3).
	const response = ctx.getResponseObject();
	response.once('close', () => {
		const ok = response.writableFinished && response.statusCode < 300;
		delivery.answered(ok);
		claim?.answered(ok);
		if (ok) scheduleResync(ctx, secret);
	});
	return answer(ctx, {
		kind: 'started',
		onStarted: () => {
			delivery.started();
			claim?.started();
		},
		item: {
			id: event.id ?? result.id,
			type,
			created_at: event.created_at ?? null,
			data: (event.data ?? null) as IDataObject,
			webhook_id: result.id,
			webhook_timestamp: result.timestamp,
			...milestone?.fields,
		},
	});
}
