import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';

import { asObject, createdRecordKey, eventQrCodeId } from '../api';
import { CATCH_UP_TYPE, catchesUp, missedEvents, RETRY_SPAN_MS, scheduleCatchUp } from './catchUp';
import { filterOut, readFilters } from './triggerProperties';
import { checkScanMilestone } from './scanMilestones';
import { missingSecretWarning, signingSecret } from './secret';
import { describeFailure, verifySignature } from './signature';
import { resync, RESYNC_TYPE, scheduleResync } from './selfRequest';
import { openLedger, type Ledger } from './ledger';

type Verified = ReturnType<typeof verifySignature>;

/**
 * How the trigger answers a request that starts nothing, and what it logs (the sender learns no
 * reason): a refusal at debug level, as anyone can send one; `later` makes the service send again.
 */
const ANSWERS = {
	refused: [401, 'Webhook signature verification failed', 'debug', 'delivery refused'],
	unreadable: [400, 'The body is not a JSON event', 'warn', 'a signed body is not a JSON event'],
	later: [503, 'Not handled now; send it again later', 'warn', 'a delivery is left for a retry'],
} as const;

type Outcome = { kind: 'skipped'; reason: string } | { kind: keyof typeof ANSWERS; why?: string };

function answer(ctx: IWebhookFunctions, outcome: Outcome): IWebhookResponseData {
	if (outcome.kind === 'skipped')
		return { webhookResponse: { received: true, started: false, reason: outcome.reason } };
	const [status, message, level, logged] = ANSWERS[outcome.kind];
	ctx.logger[level](`Dynamic QR Trigger: ${logged}${outcome.why ? `: ${outcome.why}` : ''}`);
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/**
 * Starts a run with `items`; the ledger's claims count as started when n8n starts it, and the
 * answer's end forgets them if it could not (not 2xx), so the service's retry starts it
 * (docs/n8n-behaviours.md, 3, 6).
 */
function startRun(ctx: IWebhookFunctions, secret: unknown, ledger: Ledger, items: IDataObject[]) {
	const response = ctx.getResponseObject();
	response.once('close', () => {
		const ok = response.writableFinished && response.statusCode < 300;
		ledger.settle(ok);
		if (ok) scheduleResync(ctx, secret);
	});
	return {
		// n8n 2.x reads it after starting the run, before saving (docs/n8n-behaviours.md, 5).
		get webhookResponse() {
			ledger.settle(true);
			ledger.save();
			return { message: 'Workflow was started' };
		},
		workflowData: [items.map((json) => ({ json }))],
	};
}

/** Ends a request that starts nothing: its claims are forgotten, what the process knows saved. */
function startNothing(ctx: IWebhookFunctions, ledger: Ledger, outcome: Outcome) {
	ledger.settle(false);
	ledger.save();
	return answer(ctx, outcome);
}

/**
 * The records created while the trigger's endpoint could not receive that the ledger has not
 * started, and the scan milestones passed meanwhile.
 */
async function catchUp(ctx: IWebhookFunctions, secret: unknown, since: unknown, nowMs: number) {
	const ledger = openLedger(ctx, nowMs);
	const read = Number.isFinite(since) ? missedEvents(ctx, ledger, Number(since)) : [];
	const missed = await Promise.resolve(read).catch((error: Error) => error);
	if (missed instanceof Error)
		return startNothing(ctx, ledger, { kind: 'later', why: missed.message });
	ledger.caughtUp();
	if (!missed.length)
		return startNothing(ctx, ledger, { kind: 'skipped', reason: 'nothing was missed' });
	return startRun(ctx, secret, ledger, missed);
}

function parseEvent(raw: Buffer): IDataObject | undefined {
	try {
		return asObject(JSON.parse(raw.toString('utf8')));
	} catch {
		return undefined;
	}
}

export async function receiveDelivery(ctx: IWebhookFunctions): Promise<IWebhookResponseData> {
	const req = ctx.getRequestObject();
	// n8n fills `rawBody` late for some requests.
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw = Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);
	const nowMs = Date.now();
	const verify = async (reread: boolean): Promise<{ secret: unknown; result: Verified }> => {
		const { secret, kept } = await signingSecret(ctx, reread);
		const result = verifySignature(secret, req.headers, raw, nowMs / 1000);
		// A kept dashboard secret that matches no signature is read again: it may have changed.
		const stale = kept && !result.valid && result.reason === 'no_matching_signature';
		return stale ? await verify(true) : { secret, result };
	};
	const { secret, result } = await verify(false);
	if (!result.valid) {
		// Fail closed: without a usable secret no delivery can be trusted.
		if (result.reason === 'invalid_secret') ctx.logger.warn(missingSecretWarning(ctx));
		return answer(ctx, { kind: 'refused', why: describeFailure(result.reason) });
	}

	const event = parseEvent(raw);
	if (!event) return answer(ctx, { kind: 'unreadable' });
	const type = String(event.type ?? '');
	if (type === RESYNC_TYPE) {
		resync(ctx, secret, event.round);
		return answer(ctx, { kind: 'skipped', reason: 'resync of the delivery record' });
	}
	if (type === CATCH_UP_TYPE) return await catchUp(ctx, secret, event.since, nowMs);
	const data = asObject(event.data);
	const filters = readFilters(ctx);
	const ledger = openLedger(ctx, nowMs);
	// Silent for longer than the service retries (n8n away, fewer than 20 events lost): catch up,
	// once for this silence.
	const seenAt = ledger.seenAt();
	const silent =
		seenAt !== undefined && nowMs - seenAt > RETRY_SPAN_MS && ctx.getMode() !== 'manual';
	if (silent && ledger.missedSince() === undefined && catchesUp(ctx, filters)) {
		ledger.markMissed();
		// The webhook's own URL is asked for only when a catch-up is due, not on every delivery.
		const ownUrl = ctx.getNodeWebhookUrl('default');
		if (ownUrl) scheduleCatchUp(ctx, ownUrl, secret, seenAt);
	}
	const skip = filterOut(type, data, filters);
	if (skip) return startNothing(ctx, ledger, { kind: 'skipped', reason: skip });
	// A lead or code the catch-up started is a repeat too, whatever its webhook-id; such a
	// delivery is recorded under the record's key alone.
	const record = createdRecordKey(type, data);
	if (ledger.has([result.id, record]))
		return startNothing(ctx, ledger, { kind: 'skipped', reason: 'duplicate delivery' });
	ledger.claim(record ?? result.id);
	const milestone =
		type === 'scan.created' && filters.milestones.length > 0
			? await checkScanMilestone(ctx, ledger, filters, eventQrCodeId(type, data))
			: undefined;
	if (milestone && milestone.kind !== 'claimed') return startNothing(ctx, ledger, milestone);
	return startRun(ctx, secret, ledger, [
		{
			id: event.id ?? result.id,
			type,
			created_at: event.created_at ?? null,
			data: (event.data ?? null) as IDataObject,
			webhook_id: result.id,
			webhook_timestamp: result.timestamp,
			...milestone?.fields,
		},
	]);
}
