import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { triggerParameters } from './triggerProperties';
import { registeredEndpoint, type TriggerContext } from './state';
import { isValidSecret } from '../shared/secrets';

/**
 * The signing secret: with "Register Automatically" the service's answer at registration (in the
 * static data); "Created in the Dashboard": a parameter at version 1, an encrypted credential at 2.
 */

export const endpointMode = (ctx: TriggerContext): 'automatic' | 'dashboard' =>
	triggerParameters(ctx).option('endpointMode') === 'dashboard' ? 'dashboard' : 'automatic';

/**
 * A version 2 dashboard secret is kept KEPT_FOR_MS after its credential was read
 * (docs/triggers.md#signing-secret): n8n decrypts it, maybe in an isolate, for every read.
 * Kept for the process, not a run: every delivery is a run of its own. An entry belongs to one
 * node, workflow and credential: a workflow never verifies with a secret it could not read itself.
 */
export const KEPT_FOR_MS = 5000;
const kept = new Map<string, { secret: string; readAtMs: number }>();

/** The dashboard secret without the whitespace a copy and paste brings along; empty when none. */
async function dashboardSecret(ctx: TriggerContext): Promise<string> {
	if (ctx.getNode().typeVersion < 2)
		return triggerParameters(ctx).string('signingSecret', { required: false }).trim();
	const credential = await ctx
		.getCredentials<{ signingSecret?: string }>('dynamicQrSigningSecretApi')
		.catch(() => undefined);
	return String(credential?.signingSecret ?? '').trim();
}

const dashboardSecretSource = (ctx: TriggerContext) =>
	ctx.getNode().typeVersion < 2
		? 'the Signing Secret parameter'
		: 'the Dynamic QR Webhook Signing Secret credential';

/** The secret for a delivery (maybe invalid); `kept` when read a few seconds ago. */
export async function signingSecret(ctx: IWebhookFunctions, reread = false) {
	if (endpointMode(ctx) !== 'dashboard')
		return { secret: registeredEndpoint(ctx).secret as unknown, kept: false };
	const node = ctx.getNode();
	const credentialId = node.credentials?.dynamicQrSigningSecretApi?.id;
	const key =
		node.typeVersion >= 2 && credentialId
			? JSON.stringify([ctx.getWorkflow().id ?? '', node.id ?? node.name, credentialId])
			: undefined;
	const nowMs = Date.now();
	const entry = key === undefined ? undefined : kept.get(key);
	const fresh = entry && nowMs >= entry.readAtMs && nowMs - entry.readAtMs < KEPT_FOR_MS;
	if (entry && fresh && !reread) return { secret: entry.secret, kept: true };
	// A secret that cannot be read verifies nothing: every delivery is refused.
	const secret = await dashboardSecret(ctx).catch(() => '');
	if (key !== undefined) {
		if (isValidSecret(secret)) kept.set(key, { secret, readAtMs: nowMs });
		else kept.delete(key);
	}
	return { secret, kept: false };
}

export const missingSecretWarning = (ctx: IWebhookFunctions) =>
	endpointMode(ctx) === 'dashboard'
		? `Dynamic QR Trigger: the signing secret in ${dashboardSecretSource(ctx)} is missing or not a valid "whsec_" secret; deliveries are refused`
		: 'Dynamic QR Trigger: no signing secret is stored for this workflow (deactivate and activate it again); deliveries are refused';

export async function assertDashboardSecret(ctx: IHookFunctions): Promise<void> {
	if (isValidSecret(await dashboardSecret(ctx))) return;
	throw new NodeOperationError(
		ctx.getNode(),
		`The signing secret in ${dashboardSecretSource(ctx)} is missing or not a valid signing secret`,
		{
			description:
				'Copy the signing secret of the endpoint from the dashboard: it begins with "whsec_" followed by base64 text.',
		},
	);
}
