import type { IWebhookFunctions } from 'n8n-workflow';

import type { TriggerSettings } from './filters';
import { triggerKey } from './ledger';
import { registeredEndpoint, type TriggerContext } from './state';
import { isValidSecret } from '../shared/secrets';

/**
 * The signing secret: registered, the service's answer (in the static data); from the dashboard, a
 * parameter at version 1, a credential at 2, kept KEPT_FOR_MS as n8n decrypts it (maybe in an
 * isolate) for every read (docs/triggers.md#signing-secret). Kept for the process, not a run: each
 * delivery is a run of its own. An entry belongs to one node, workflow and credential: a workflow
 * never verifies with a secret it could not read itself.
 */
export const KEPT_FOR_MS = 5000;
const kept = new Map<string, { secret: string; readAtMs: number }>();

const fromParameter = (ctx: TriggerContext) => ctx.getNode().typeVersion < 2;

/** The dashboard secret without the whitespace a copy and paste brings along; empty when none. */
export async function dashboardSecret(ctx: TriggerContext, settings: TriggerSettings) {
	if (fromParameter(ctx)) return settings.signingSecret();
	const credential = await ctx
		.getCredentials<{ signingSecret?: string }>('dynamicQrSigningSecretApi')
		.catch(() => undefined);
	return String(credential?.signingSecret ?? '').trim();
}

export const sourceOf = (ctx: TriggerContext) =>
	fromParameter(ctx)
		? 'the Signing Secret parameter'
		: 'the Dynamic QR Webhook Signing Secret credential';

/** The secret for a delivery (maybe invalid); `kept` when read a few seconds ago. */
export async function signingSecret(
	ctx: IWebhookFunctions,
	settings: TriggerSettings,
	reread = false,
) {
	if (settings.mode !== 'dashboard')
		return { secret: registeredEndpoint(ctx).secret as unknown, kept: false };
	const credentialId = ctx.getNode().credentials?.dynamicQrSigningSecretApi?.id;
	// Only a credential's secret is kept ('': not kept).
	const key = !fromParameter(ctx) && credentialId ? `${triggerKey(ctx)}\u0000${credentialId}` : '';
	const nowMs = Date.now();
	const entry = kept.get(key);
	const age = nowMs - (entry?.readAtMs ?? NaN);
	if (entry && !reread && age >= 0 && age < KEPT_FOR_MS)
		return { secret: entry.secret, kept: true };
	// A secret that cannot be read verifies nothing: every delivery is refused.
	const secret = await dashboardSecret(ctx, settings).catch(() => '');
	if (key && isValidSecret(secret)) kept.set(key, { secret, readAtMs: nowMs });
	else kept.delete(key);
	return { secret, kept: false };
}

export const missingSecretWarning = (ctx: IWebhookFunctions, settings: TriggerSettings) =>
	settings.mode === 'dashboard'
		? `Dynamic QR Trigger: the signing secret in ${sourceOf(ctx)} is missing or not a valid "whsec_" secret; deliveries are refused`
		: 'Dynamic QR Trigger: no signing secret is stored for this workflow (deactivate and activate it again); deliveries are refused';
