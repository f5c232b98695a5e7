import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { triggerParameters } from './description';
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

/** The secret deliveries are checked against; not necessarily valid. */
export async function signingSecret(ctx: IWebhookFunctions): Promise<unknown> {
	if (endpointMode(ctx) !== 'dashboard') return registeredEndpoint(ctx).secret;
	try {
		return await dashboardSecret(ctx);
	} catch {
		return ''; // a secret of the wrong kind verifies nothing: every delivery is refused
	}
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
