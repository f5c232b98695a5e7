import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { triggerParameters } from './triggerProperties';
import { keepSecret, keptSecret } from './keptSecrets';
import { registeredEndpoint } from './state';
import { isValidSecret } from '../shared/secrets';

/**
 * Where the signing secret comes from. With "Register Automatically" it is the secret the
 * service answered when this node registered its endpoint (in the static data); with "Created
 * in the Dashboard" the user gives it: a node parameter at version 1, the signing-secret
 * credential (stored encrypted) from version 2.
 */

type TriggerContext = IHookFunctions | IWebhookFunctions;

export type EndpointMode = 'automatic' | 'dashboard';

export function endpointMode(ctx: TriggerContext): EndpointMode {
	return triggerParameters(ctx).option('endpointMode') === 'dashboard' ? 'dashboard' : 'automatic';
}

/** The dashboard secret without the whitespace a copy and paste brings along; empty when none. */
async function dashboardSecret(ctx: TriggerContext): Promise<string> {
	if (ctx.getNode().typeVersion < 2) {
		return triggerParameters(ctx).string('signingSecret', { required: false }).trim();
	}
	try {
		const credential = await ctx.getCredentials<{ signingSecret?: string }>(
			'dynamicQrSigningSecretApi',
		);
		return String(credential.signingSecret ?? '').trim();
	} catch {
		return '';
	}
}

/** Where the user sets the dashboard secret, in the words of the node's version. */
const dashboardSecretSource = (ctx: TriggerContext) =>
	ctx.getNode().typeVersion < 2
		? 'the Signing Secret parameter'
		: 'the Dynamic QR Webhook Signing Secret credential';

/** The secret deliveries are checked against (not necessarily valid), and where it came from. */
export interface DeliverySecret {
	secret: unknown;
	/** Kept from an earlier read of the credential (keptSecrets.ts), not read for this delivery. */
	kept: boolean;
}

/** Which kept secret a version 2 dashboard trigger may use: its workflow, node and credential. */
function keptSecretKey(ctx: IWebhookFunctions): string | undefined {
	const node = ctx.getNode();
	const credentialId = node.credentials?.dynamicQrSigningSecretApi?.id;
	if (node.typeVersion < 2 || !credentialId) return undefined;
	return JSON.stringify([ctx.getWorkflow().id ?? '', node.id ?? node.name, credentialId]);
}

/**
 * The secret for a delivery. A dashboard secret read less than a few seconds ago is used again
 * unless `reread`, which the caller asks for when a kept secret does not verify a delivery.
 */
export async function signingSecret(
	ctx: IWebhookFunctions,
	{ reread = false } = {},
): Promise<DeliverySecret> {
	if (endpointMode(ctx) !== 'dashboard') {
		return { secret: registeredEndpoint(ctx).secret, kept: false };
	}
	const key = keptSecretKey(ctx);
	const nowMs = Date.now();
	const kept = key === undefined || reread ? undefined : keptSecret(key, nowMs);
	if (kept !== undefined) return { secret: kept, kept: true };
	let secret = '';
	try {
		secret = await dashboardSecret(ctx);
	} catch {
		// a secret of the wrong kind verifies nothing: every delivery is refused
	}
	if (key !== undefined && isValidSecret(secret)) keepSecret(key, secret, nowMs);
	return { secret, kept: false };
}

/** Why no delivery can be verified, for the log: the secret is missing or malformed. */
export function missingSecretWarning(ctx: IWebhookFunctions): string {
	return endpointMode(ctx) === 'dashboard'
		? `Dynamic QR Trigger: the signing secret in ${dashboardSecretSource(ctx)} is missing or not a valid "whsec_" secret; deliveries are refused`
		: 'Dynamic QR Trigger: no signing secret is stored for this workflow (deactivate and activate it again); deliveries are refused';
}

/** Refuses to activate a dashboard-mode trigger whose secret could verify nothing. */
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
