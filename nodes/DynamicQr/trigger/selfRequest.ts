import { randomUUID } from 'crypto';
import { type IWebhookFunctions, sleep } from 'n8n-workflow';

import { openLedger, triggerKey } from './ledger';
import { signPayload } from './signature';
import { IN_FLIGHT_MS, type TriggerContext } from './state';

/**
 * A request to the trigger's own webhook, signed as the service signs a delivery: the process n8n
 * routes it to can write static data and start a run; a hook or a finished request cannot.
 */
export async function sendSigned(
	ctx: TriggerContext,
	url: string,
	secret: unknown,
	event: Record<string, unknown>,
	{ idPrefix, timeoutMs, local = false }: { idPrefix: string; timeoutMs: number; local?: boolean },
): Promise<void> {
	const id = `${idPrefix}_${randomUUID()}`;
	const timestamp = Math.floor(Date.now() / 1000);
	const body = JSON.stringify(event);
	const signature = signPayload(secret, id, timestamp, body);
	if (!signature) throw new Error('no signing secret');
	await ctx.helpers.httpRequest({
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
		skipSslCertificateValidation: local && url.startsWith('https:'),
		timeout: timeoutMs,
	});
}

/**
 * The resync (docs/scaling.md; docs/n8n-behaviours.md, 4, 10, 11): QUIET_MS after its last run a
 * processor writes back what the stored ledger lacks; again while that wrote something; once more
 * IN_FLIGHT_MS after the first that wrote nothing (LAST_ROUND), when older copies have been saved.
 */

export const RESYNC_TYPE = 'n8n-nodes-dynamic-qr.resync';
const QUIET_MS = 500;
const LAST_ROUND = 6;
const MAX_ROUNDS = 8;

/** Per trigger, the latest planned resync. Kept for the process, not a run: the quiet spans runs. */
const latest = new Map<string, symbol>();

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

/** Plans a resync `ms` after the last call; a test webhook (the editor's) keeps no record. */
export function scheduleResync(ctx: IWebhookFunctions, secret: unknown, round = 1, ms = QUIET_MS) {
	const url = ownUrl(ctx);
	if (!url || ctx.getMode() === 'manual' || round > MAX_ROUNDS) return;
	const trigger = triggerKey(ctx);
	const plan = Symbol(trigger);
	latest.set(trigger, plan);
	void sleep(ms).then(async () => {
		if (latest.get(trigger) !== plan) return;
		latest.delete(trigger);
		const options = { idPrefix: 'resync', timeoutMs: IN_FLIGHT_MS, local: true };
		await sendSigned(ctx, url, secret, { type: RESYNC_TYPE, round }, options).catch(
			(error: Error) =>
				ctx.logger.debug(`Dynamic QR Trigger: resync of the ledger failed: ${error.message}`),
		);
	});
}

export function resync(ctx: IWebhookFunctions, secret: unknown, round: unknown): void {
	const done = Number.isInteger(round) ? Number(round) : MAX_ROUNDS;
	if (openLedger(ctx).save()) scheduleResync(ctx, secret, done + 1);
	else if (done < LAST_ROUND) scheduleResync(ctx, secret, LAST_ROUND, IN_FLIGHT_MS);
}
