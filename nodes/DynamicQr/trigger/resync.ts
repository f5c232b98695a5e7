import { randomUUID } from 'crypto';
import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { signPayload } from './signature';
import { repairRecords, triggerKey } from './state';

/**
 * After deliveries arrive at once on several webhook processors, the stored record of started
 * deliveries holds only what the processor that saved last knew (every request loads the same
 * copy, n8n saves it whole; see repeats.ts). The others' ids would come back with their next
 * request, but a delivery re-sent to another processor before that would start again. So once a
 * processor has been quiet for a moment after starting workflows, it sends itself a resync: a
 * request to its own webhook, signed with the trigger's secret, that starts nothing and writes
 * back what the stored record lacks. One that wrote something back is followed by another, to
 * confirm it was not overwritten in turn.
 */

/** The type of a resync event: only this trigger sends it, to the n8n process it runs in. */
export const RESYNC_TYPE = 'n8n-nodes-dynamic-qr.resync';
/** Quiet time after the last started delivery (or resync that wrote) before the next resync. */
const QUIET_MS = 500;
/** Resyncs in a row that may write something back; then the next delivery takes over. */
const MAX_ROUNDS = 5;

/**
 * Per trigger, the latest planned resync: an earlier one still waiting is dropped.
 * Kept for the process, not a run: every delivery is a run of its own (n8n makes a new
 * context per request), and the quiet time is measured across them.
 */
const latest = new Map<string, symbol>();

/** This process's own address for the request being answered, with its path. */
function ownUrl(ctx: IWebhookFunctions): string | undefined {
	const req = ctx.getRequestObject();
	const socket = req.socket as { localAddress?: string; localPort?: number; encrypted?: boolean };
	const address = socket.localAddress?.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/, '');
	// Express (n8n) keeps the path as requested in originalUrl; a plain Node server has url.
	const path = req.originalUrl ?? req.url;
	if (!address || !socket.localPort || !path) return undefined;
	const host = address.includes(':') ? `[${address}]` : address;
	return `${socket.encrypted ? 'https' : 'http'}://${host}:${socket.localPort}${path}`;
}

/**
 * Plans a resync of this trigger's record in this process, QUIET_MS after the last call; a test
 * webhook (the editor's) has no record to keep.
 */
export function scheduleResync(ctx: IWebhookFunctions, secret: unknown, round = 1): void {
	const url = ownUrl(ctx);
	if (!url || ctx.getMode() === 'manual' || round > MAX_ROUNDS) return;
	const trigger = triggerKey(ctx);
	const plan = Symbol(trigger);
	latest.set(trigger, plan);
	void sleep(QUIET_MS).then(() => {
		if (latest.get(trigger) !== plan) return;
		latest.delete(trigger);
		sendResync(ctx, url, secret, round);
	});
}

function sendResync(ctx: IWebhookFunctions, url: string, secret: unknown, round: number): void {
	const id = `resync_${randomUUID()}`;
	const timestamp = Math.floor(Date.now() / 1000);
	const body = JSON.stringify({ type: RESYNC_TYPE, round });
	const signature = signPayload(secret, id, timestamp, body);
	if (!signature) return;
	ctx.helpers
		.httpRequest({
			method: 'POST',
			url,
			body,
			headers: {
				'content-type': 'application/json',
				'webhook-id': id,
				'webhook-timestamp': String(timestamp),
				'webhook-signature': signature,
			},
			// To this process itself, whose certificate names its public host, not this address.
			skipSslCertificateValidation: url.startsWith('https:'),
			timeout: 10_000,
		})
		.catch((error: Error) =>
			ctx.logger.debug(
				`Dynamic QR Trigger: resync of the delivery record failed: ${error.message}`,
			),
		);
}

/**
 * A resync arrived: writes back what the records (deliveries, scan milestones) lack; when they
 * lacked anything, plans another.
 */
export function resync(ctx: IWebhookFunctions, secret: unknown, round: unknown): void {
	if (repairRecords(ctx, Date.now())) {
		scheduleResync(ctx, secret, (Number.isInteger(round) ? Number(round) : MAX_ROUNDS) + 1);
	}
}
