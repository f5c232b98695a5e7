import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { WebhookEndpoint } from '../api';
import { ApiClient, isGone, sameEvents, unwrap, webhookEndpoints } from '../api';
import type { DeliveryFilters } from './filters';
import { readFilters } from './filters';
import { webhookReachabilityProblem } from './reachability';
import { prepareMilestones } from './scanMilestones';
import { assertDashboardSecret, endpointMode } from './secret';
import type { RegisteredEndpoint } from './state';
import {
	forgetEndpoint,
	registeredEndpoint,
	rememberEndpoint,
	waitForRetiredEndpoint,
} from './state';
import { isValidSecret, webhookSecretOf } from '../shared/secrets';

/**
 * The webhook endpoint's life at the service: checked, registered (replacing what is outdated)
 * and removed as n8n activates and deactivates the workflow. In dashboard mode the user owns the
 * endpoint, and nothing is registered or removed.
 */

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(
			ctx.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	return url;
}

/** The events and filters, checked: a bad filter, or no event chosen, fails the activation. */
function checkedFilters(ctx: IHookFunctions): DeliveryFilters {
	const filters = readFilters(ctx);
	if (filters.events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
			description: 'Choose at least one event in "Trigger On" before activating the workflow.',
		});
	}
	return filters;
}

/** Every webhook endpoint of the workspace, all pages. */
async function listEndpoints(client: ApiClient): Promise<WebhookEndpoint[]> {
	return webhookEndpoints(await client.all('/webhooks'));
}

/** DELETE one endpoint; one that is not there is already gone. Returns an error text on failure. */
async function deleteEndpoint(client: ApiClient, id: string): Promise<string | undefined> {
	try {
		await client.request('DELETE', `/webhooks/${encodeURIComponent(id)}`);
		return undefined;
	} catch (error) {
		if (isGone(error)) return undefined;
		return (error as Error).message ?? String(error);
	}
}

/**
 * Whether the endpoint at the service is the one this node registered, usable as it is. Listed
 * without its events, it counts as having those it was registered with (kept in static data).
 */
function isUsable(
	remote: WebhookEndpoint | undefined,
	registered: Partial<RegisteredEndpoint>,
	url: string,
	events: string[],
): boolean {
	return (
		remote !== undefined &&
		remote.id === registered.id &&
		remote.url === url &&
		sameEvents(remote.events ?? registered.events, events) &&
		remote.active &&
		isValidSecret(registered.secret)
	);
}

async function assertReachable(client: ApiClient, url: string): Promise<void> {
	const { ctx } = client;
	const problem = webhookReachabilityProblem(url, (await client.connection()).baseUrl);
	if (!problem) return;
	const what =
		problem.reason === 'local'
			? `is on a local or private address (${problem.webhookHost})`
			: `uses plain HTTP (${problem.webhookHost})`;
	throw new NodeOperationError(
		ctx.getNode(),
		`The Dynamic QR service cannot deliver events to this n8n: its webhook URL ${what}`,
		{
			description:
				"n8n builds webhook URLs from its WEBHOOK_URL environment variable. Set WEBHOOK_URL to the public HTTPS address of this n8n instance (for example https://n8n.example.com/, behind a reverse proxy or a tunnel), restart n8n and activate the workflow again. If this n8n cannot be reached from the internet, use the 'Dynamic QR Polling Trigger' node instead: it asks the API for new leads and QR codes on a schedule and needs no incoming connection.",
		},
	);
}

/**
 * Whether the endpoint this node registered is still at the service, unchanged and active.
 * Looks by the stored id and by URL + events, across all pages. Never deletes.
 */
export async function endpointExists(ctx: IHookFunctions): Promise<boolean> {
	if (endpointMode(ctx) === 'dashboard') {
		await prepareMilestones(ctx, checkedFilters(ctx));
		await assertDashboardSecret(ctx);
		return true;
	}
	const client = new ApiClient(ctx);
	const registered = registeredEndpoint(ctx);
	const url = webhookUrlOf(ctx);
	const filters = checkedFilters(ctx);
	const { events } = filters;
	await assertReachable(client, url);
	await prepareMilestones(ctx, filters);
	const endpoints = await listEndpoints(client);
	const byId = endpoints.find((endpoint) => endpoint.id === registered.id);
	if (isUsable(byId, registered, url, events)) return true;
	if (byId || endpoints.some((endpoint) => endpoint.url === url)) {
		// Found but not usable (paused, other events, or registered without a secret this node
		// holds): registerEndpoint() replaces it.
		ctx.logger.info(
			`Dynamic QR Trigger: the webhook endpoint for ${url} needs replacing (${
				byId && !byId.active ? `${byId.status} at the service` : 'events or secret differ'
			})`,
		);
	}
	return false;
}

/**
 * Registers the webhook URL with the chosen events and keeps the endpoint id and secret.
 * Endpoints this node registered before, and any other endpoint pointing at exactly this node's
 * webhook URL (it could not be verified: its secret is unknown here), are removed first.
 */
export async function registerEndpoint(ctx: IHookFunctions): Promise<boolean> {
	if (endpointMode(ctx) === 'dashboard') return true;
	const client = new ApiClient(ctx);
	const previousId = registeredEndpoint(ctx).id;
	const url = webhookUrlOf(ctx);
	const filters = checkedFilters(ctx);
	const { events } = filters;
	await assertReachable(client, url);
	await prepareMilestones(ctx, filters);

	const staleIds = new Set(
		(await listEndpoints(client))
			.filter((endpoint) => endpoint.id === previousId || endpoint.url === url)
			.map((endpoint) => endpoint.id),
	);
	if (previousId) staleIds.add(previousId);
	for (const id of staleIds) {
		const problem = await deleteEndpoint(client, id);
		if (problem) {
			ctx.logger.warn(
				`Dynamic QR Trigger: could not remove the outdated webhook endpoint ${id}: ${problem}`,
			);
		}
	}
	await waitForRetiredEndpoint(ctx, Date.now());
	forgetEndpoint(ctx);

	const answer = await client.request('POST', '/webhooks', { body: { url, events } });
	const record = unwrap(answer);
	const id = typeof record.id === 'string' ? record.id : undefined;
	const secret = webhookSecretOf(answer);
	if (!id || !secret) {
		if (id) await deleteEndpoint(client, id);
		throw new NodeOperationError(
			ctx.getNode(),
			'The service registered the webhook endpoint but did not return a usable signing secret',
			{
				description:
					'Deliveries could not be verified, so the endpoint was removed again. Try activating again; if it persists, create the endpoint in the dashboard and use the "Created in the Dashboard" mode.',
			},
		);
	}
	rememberEndpoint(ctx, { id, secret, url, events });
	return true;
}

/**
 * Removes the endpoint this node registered (and, in automatic mode, any other endpoint pointing
 * at this node's webhook URL). One already gone counts as removed; anything else is logged and
 * the id kept, so the next activation removes it.
 */
export async function removeEndpoint(ctx: IHookFunctions): Promise<boolean> {
	const client = new ApiClient(ctx);
	const registeredId = registeredEndpoint(ctx).id;
	const ids = new Set<string>();
	if (registeredId) ids.add(registeredId);
	if (endpointMode(ctx) === 'automatic') {
		try {
			const url = webhookUrlOf(ctx);
			for (const endpoint of await listEndpoints(client)) {
				if (endpoint.url === url) ids.add(endpoint.id);
			}
		} catch (error) {
			ctx.logger.warn(
				`Dynamic QR Trigger: could not list webhook endpoints to clean up: ${(error as Error).message}`,
			);
		}
	}
	const failed: string[] = [];
	for (const id of ids) {
		const problem = await deleteEndpoint(client, id);
		if (problem) {
			failed.push(id);
			ctx.logger.warn(
				`Dynamic QR Trigger: could not remove webhook endpoint ${id}: ${problem}. Remove it in the service's dashboard if it stays.`,
			);
		}
	}
	const keep = registeredId && failed.includes(registeredId) ? registeredId : undefined;
	forgetEndpoint(ctx, { retiredAt: Date.now(), keepId: keep });
	return failed.length === 0;
}
