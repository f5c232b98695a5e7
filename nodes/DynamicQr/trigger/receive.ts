import type { IDataObject, IWebhookFunctions, IWebhookResponseData } from 'n8n-workflow';
import { jsonParse } from 'n8n-workflow';

import { asObject, createdRecordKey } from '../api';
import { CATCH_UP_TYPE, caughtUp, noticeSilence } from './catchUp';
import { filterOut, type TriggerSettings } from './filters';
import { acceptedDelivery, showRefusal } from './refusals';
import { checkScanMilestone } from './scanMilestones';
import { missingSecretWarning, signingSecret } from './secret';
import { FAILURES, verifySignature } from './signature';
import { resync, RESYNC_TYPE, scheduleResync } from './selfRequest';
import { openLedger, type Ledger } from './ledger';

/** Answers that start nothing, no reason given; refusals log at debug, as anyone can send one. */
const ANSWERS = {
	refused: [401, 'Webhook signature verification failed', 'debug', 'delivery refused'],
	unreadable: [400, 'The body is not a JSON event', 'warn', 'a signed body is not a JSON event'],
	later: [503, 'Not handled now; send it again later', 'warn', 'a delivery is left for a retry'],
} as const;

/** A text: why a request starts nothing, answered 2xx (a repeat, or not for this workflow). */
export type Outcome = string | { kind: keyof typeof ANSWERS; why?: string };

/** A request that starts nothing; its claims in `ledger` are forgotten, what the process knows saved. */
function answer(ctx: IWebhookFunctions, outcome: Outcome, ledger?: Ledger): IWebhookResponseData {
	ledger?.settle(false);
	ledger?.save();
	if (typeof outcome === 'string')
		return { webhookResponse: { received: true, started: false, reason: outcome } };
	const [status, message, level, logged] = ANSWERS[outcome.kind];
	ctx.logger[level](`Dynamic QR Trigger: ${logged}${outcome.why ? `: ${outcome.why}` : ''}`);
	ctx.getResponseObject().status(status).json({ message });
	return { noWebhookResponse: true };
}

/**
 * Starts a run: its claims count as started, or are forgotten when n8n could not start it (not
 * 2xx), so the service's retry does (docs/n8n-behaviours.md, 3, 6).
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

export async function receiveDelivery(ctx: IWebhookFunctions, settings: TriggerSettings) {
	const req = ctx.getRequestObject();
	// n8n fills `rawBody` late for some requests.
	if (req.rawBody === undefined && typeof req.readRawBody === 'function') await req.readRawBody();
	const raw = Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);
	const nowMs = Date.now();
	let { secret, kept } = await signingSecret(ctx, settings);
	let result = verifySignature(secret, req.headers, raw, nowMs / 1000);
	// A kept dashboard secret that matches no signature is read again: it may have changed.
	if (kept && !result.valid && result.reason === 'no_matching_signature') {
		({ secret, kept } = await signingSecret(ctx, settings, true));
		result = verifySignature(secret, req.headers, raw, nowMs / 1000);
	}
	if (!result.valid) {
		if (result.reason === 'invalid_secret') ctx.logger.warn(missingSecretWarning(ctx, settings));
		const signed = req.headers['webhook-signature'] !== undefined;
		showRefusal(ctx, settings, result.reason, signed, nowMs);
		return answer(ctx, { kind: 'refused', why: FAILURES[result.reason] });
	}

	const event = asObject(jsonParse<unknown>(raw.toString('utf8'), { fallbackValue: null }));
	if (!event) return answer(ctx, { kind: 'unreadable' });
	const type = String(event.type ?? '');
	if (type === RESYNC_TYPE) {
		resync(ctx, secret, event.round);
		return answer(ctx, 'resync of the delivery record');
	}
	const filters = settings.filters();
	const ledger = openLedger(ctx, nowMs);
	if (type === CATCH_UP_TYPE) {
		const caught = await caughtUp(ctx, ledger, event, filters);
		return Array.isArray(caught)
			? startRun(ctx, secret, ledger, caught)
			: answer(ctx, caught, ledger);
	}
	// The service's own delivery verified (the trigger's own requests above say nothing of it).
	acceptedDelivery(ctx);
	const data = asObject(event.data);
	noticeSilence(ctx, settings.mode, filters, ledger, secret, nowMs);
	const skip = filterOut(type, data, filters);
	if (skip) return answer(ctx, skip, ledger);
	// A lead or code is recorded under its own key alone: one the catch-up started is a repeat.
	const record = createdRecordKey(type, data);
	if (ledger.has([result.id, record])) return answer(ctx, 'duplicate delivery', ledger);
	ledger.claim(record ?? result.id);
	const milestone = await checkScanMilestone(ctx, ledger, filters, type, data);
	if (typeof milestone === 'string' || milestone?.kind === 'later')
		return answer(ctx, milestone, ledger);
	return startRun(ctx, secret, ledger, [
		{
			id: event.id ?? result.id,
			type,
			created_at: event.created_at ?? null,
			data: (event.data ?? null) as IDataObject,
			webhook_id: result.id,
			webhook_timestamp: result.timestamp,
			// The ledger's key: a lead or code by its record, whichever path brings it; else the event.
			event_key: record ?? result.id,
			...milestone?.fields,
		},
	]);
}
