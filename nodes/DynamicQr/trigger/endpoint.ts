import { type IHookFunctions, NodeOperationError } from 'n8n-workflow';

import type { WebhookEndpoint } from '../api';
import { ApiClient, isGone, sameEvents, unwrap, webhookEndpoints } from '../api';
import type { TriggerSettings } from './filters';
import { prepareMilestones } from './scanMilestones';
import { dashboardSecret, sourceOf } from './secret';
import { catchesUp, scheduleCatchUp } from './catchUp';
import { forgetEndpoint, registeredEndpoint, storeEndpoint } from './state';
import { openLedger } from './ledger';
import { isValidSecret, webhookSecretOf } from '../shared/secrets';

/** The endpoint at the service as n8n (de)activates the workflow; in dashboard mode, the user's. */

const fail = (ctx: IHookFunctions, message: string, description?: string) =>
	new NodeOperationError(ctx.getNode(), message, { description });

/** localhost, loopback, private, link-local, unspecified and "internal" names; a bare name (an intranet's). */
const LOCAL_HOSTS = [
	/^(|localhost|.*\.localhost|[^.:]+)$/,
	/\.(local|internal|lan|home|intranet|corp|test|localdomain)$/,
	/^(0|10|127)\.\d+\.\d+\.\d+$/,
	/^100\.(6[4-9]|[7-9]\d|1[01]\d|12[0-7])\.\d+\.\d+$/,
	/^(169\.254|192\.168)\.\d+\.\d+$/,
	/^172\.(1[6-9]|2\d|3[01])\.\d+\.\d+$/,
	/^(::1?|f[cd][0-9a-f]{2}:.*|fe[89ab][0-9a-f]:.*)$/,
];

/** An IPv4-mapped IPv6 address, which URL writes in hex (::ffff:7f00:1), as that IPv4 address. */
const unmapped = (host: string) =>
	host.replace(/^::ffff:([\da-f]{1,4}):([\da-f]{1,4})$/, (_, high: string, low: string) =>
		[parseInt(high, 16), parseInt(low, 16)].flatMap((group) => [group >> 8, group & 255]).join('.'),
	);

/** For a URL's hostname, which URL gives lowercase, IPv4 canonical and IPv6 in brackets. */
const isLocalHost = (hostname: string) =>
	LOCAL_HOSTS.some((pattern) => pattern.test(unmapped(hostname.replace(/^\[|\]$|\.$/g, ''))));

/** The service delivers from the internet: a local or plain HTTP URL only works with a local API. */
function assertReachable(ctx: IHookFunctions, webhookUrl: string, apiBaseUrl: string) {
	if (!URL.canParse(webhookUrl) || !URL.canParse(apiBaseUrl)) return;
	if (isLocalHost(new URL(apiBaseUrl).hostname)) return;
	const webhook = new URL(webhookUrl);
	const what = isLocalHost(webhook.hostname)
		? `is on a local or private address (${webhook.host})`
		: webhook.protocol !== 'https:'
			? `uses plain HTTP (${webhook.host})`
			: undefined;
	if (!what) return;
	throw fail(
		ctx,
		`The Dynamic QR service cannot deliver events to this n8n: its webhook URL ${what}`,
		"n8n builds webhook URLs from its WEBHOOK_URL environment variable. Set WEBHOOK_URL to the public HTTPS address of this n8n instance (for example https://n8n.example.com/, behind a reverse proxy or a tunnel), restart n8n and activate the workflow again. If this n8n cannot be reached from the internet, use the 'Dynamic QR Polling Trigger' node instead: it asks the API for new leads and QR codes on a schedule and needs no incoming connection.",
	);
}

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (url) return url;
	throw fail(ctx, 'n8n did not provide a webhook URL for this trigger');
}

/** This node's endpoint and any other at `url`; this node's paused or gone: a catch-up is due. */
async function endpointsAt(ctx: IHookFunctions, client: ApiClient, url = webhookUrlOf(ctx)) {
	const registered = registeredEndpoint(ctx);
	const endpoints = webhookEndpoints(await client.all('/webhooks'));
	const own = endpoints.find((endpoint) => endpoint.id === registered.id);
	if (registered.id && !own?.active) openLedger(ctx).markMissed();
	return { registered, own, atUrl: endpoints.filter((endpoint) => endpoint.url === url) };
}

/** Also removes any other endpoint at the URL (its secret is unknown); returns the ids that failed. */
async function removeAll(client: ApiClient, ownId: string | undefined, atUrl: WebhookEndpoint[]) {
	const failed: string[] = [];
	for (const id of new Set([ownId, ...atUrl.map((endpoint) => endpoint.id)])) {
		if (!id) continue;
		// An endpoint that is not there is already gone.
		const problem = await client.request('DELETE', `/webhooks/${encodeURIComponent(id)}`).then(
			() => undefined,
			(error: Error) => (isGone(error) ? undefined : error),
		);
		if (!problem) continue;
		failed.push(id);
		client.ctx.logger.warn(
			`Dynamic QR Trigger: could not remove webhook endpoint ${id}: ${problem.message}. Remove it in the service's dashboard if it stays.`,
		);
	}
	return failed;
}

/** Activation's checks; in automatic mode, the endpoints at the service too (none in dashboard mode). */
async function activation(ctx: IHookFunctions, settings: TriggerSettings) {
	const filters = settings.filters();
	if (filters.events.length === 0)
		throw fail(
			ctx,
			'No event is selected',
			'Choose at least one event in "Trigger On" before activating the workflow.',
		);
	if (settings.mode === 'dashboard') {
		if (filters.milestones.length > 0)
			throw fail(
				ctx,
				'"Only at Scan Milestones" (in Filters) needs the Endpoint "Register Automatically"',
				"A scan event carries no count, so the trigger reads the scanned code's count with the API key of the Dynamic QR API credential, which an endpoint created in the dashboard does not use. Choose Register Automatically, or remove the filter.",
			);
		if (!isValidSecret(await dashboardSecret(ctx, settings)))
			throw fail(
				ctx,
				`The signing secret in ${sourceOf(ctx)} is missing or not a valid signing secret`,
				'Copy the signing secret of the endpoint from the dashboard: it begins with "whsec_" followed by base64 text.',
			);
		return undefined;
	}
	const client = new ApiClient(ctx);
	const url = webhookUrlOf(ctx);
	assertReachable(ctx, url, (await client.connection()).baseUrl);
	await prepareMilestones(ctx, filters);
	return { client, url, filters, ...(await endpointsAt(ctx, client, url)) };
}

export async function endpointExists(ctx: IHookFunctions, settings: TriggerSettings) {
	const found = await activation(ctx, settings);
	if (!found) return true;
	const { url, filters, registered, own, atUrl } = found;
	// Listed without its events, it counts as having those it was registered with.
	const usable =
		own?.url === url &&
		sameEvents(own.events ?? registered.events, filters.events) &&
		own.active &&
		isValidSecret(registered.secret);
	if (usable) return true;
	if (own || atUrl.length > 0) {
		// Paused, other events, or without a secret this node holds: registerEndpoint() replaces it.
		const why = own && !own.active ? `${own.status} at the service` : 'events or secret differ';
		ctx.logger.info(`Dynamic QR Trigger: the webhook endpoint for ${url} needs replacing (${why})`);
	}
	return false;
}

/** In dashboard mode the user's endpoint exists (endpointExists): n8n registers nothing. */
export async function registerEndpoint(ctx: IHookFunctions, settings: TriggerSettings) {
	const found = await activation(ctx, settings);
	if (!found) return true;
	const { client, url, filters, registered, atUrl } = found;
	const { events } = filters;
	await removeAll(client, registered.id, atUrl);
	await forgetEndpoint(ctx);

	const answer = await client.request('POST', '/webhooks', { body: { url, events } });
	const id = unwrap(answer).id;
	const secret = webhookSecretOf(answer);
	if (typeof id === 'string' && id && secret) {
		storeEndpoint(ctx, { id, secret, url, events });
		const ledger = openLedger(ctx);
		ledger.registered();
		const missedSince = ledger.missedSince();
		if (missedSince !== undefined && catchesUp('automatic', filters))
			scheduleCatchUp(ctx, url, secret, { since: missedSince });
		else ledger.caughtUp();
		return true;
	}
	if (typeof id === 'string' && id) await removeAll(client, id, []);
	throw fail(
		ctx,
		'The service registered the webhook endpoint but did not return a usable signing secret',
		'Deliveries could not be verified, so the endpoint was removed again. Try activating again; if it persists, create the endpoint in the dashboard and use the "Created in the Dashboard" mode.',
	);
}

/** In dashboard mode, only one this node registered before; one whose removal failed keeps its id. */
export async function removeEndpoint(ctx: IHookFunctions, { mode }: TriggerSettings) {
	const client = new ApiClient(ctx);
	const registeredId = registeredEndpoint(ctx).id;
	const listed =
		mode === 'automatic' &&
		(await endpointsAt(ctx, client).catch((error: Error) =>
			ctx.logger.warn(
				`Dynamic QR Trigger: could not list webhook endpoints to clean up: ${error.message}`,
			),
		));
	const failed = await removeAll(client, registeredId, listed ? listed.atUrl : []);
	storeEndpoint(ctx, { id: failed.find((id) => id === registeredId) }, Date.now());
	return failed.length === 0;
}
