import type { IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { sendSigned } from './selfRequest';
import { openLedger, triggerKey } from './ledger';

/**
 * The resync (docs/scaling.md; docs/n8n-behaviours.md, 4, 10, 11): QUIET_MS after its last started
 * delivery a processor sends its own webhook a signed request that starts nothing and writes back
 * what the stored records lack; again while one wrote something, up to MAX_ROUNDS in a row.
 */

export const RESYNC_TYPE = 'n8n-nodes-dynamic-qr.resync';
const QUIET_MS = 500;
const MAX_ROUNDS = 5;

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

/** Plans a resync QUIET_MS after the last call; a test webhook (the editor's) keeps no record. */
export function scheduleResync(ctx: IWebhookFunctions, secret: unknown, round = 1): void {
	const url = ownUrl(ctx);
	if (!url || ctx.getMode() === 'manual' || round > MAX_ROUNDS) return;
	const trigger = triggerKey(ctx);
	const plan = Symbol(trigger);
	latest.set(trigger, plan);
	void sleep(QUIET_MS).then(async () => {
		if (latest.get(trigger) !== plan) return;
		latest.delete(trigger);
		await sendSigned(
			ctx,
			url,
			secret,
			{ type: RESYNC_TYPE, round },
			{ idPrefix: 'resync', timeoutMs: 10_000, local: true },
		).catch((error: Error) =>
			ctx.logger.debug(
				`Dynamic QR Trigger: resync of the delivery record failed: ${error.message}`,
			),
		);
	});
}

export function resync(ctx: IWebhookFunctions, secret: unknown, round: unknown): void {
	if (!openLedger(ctx).save()) return;
	scheduleResync(ctx, secret, (Number.isInteger(round) ? Number(round) : MAX_ROUNDS) + 1);
}
