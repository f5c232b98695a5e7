import { randomUUID } from 'crypto';
import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { signPayload } from './signature';

/**
 * A request the trigger sends its own webhook, signed with its own secret as the service signs a
 * delivery: it arrives in whichever process n8n routes it to (queue mode: one webhook processor),
 * which can write static data and start a run; a hook or a finished request cannot.
 */
export async function sendSigned(
	ctx: IHookFunctions | IWebhookFunctions,
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
