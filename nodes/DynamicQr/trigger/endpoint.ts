import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { WebhookEndpoint } from '../api';
import { ApiClient, isGone, sameEvents, unwrap, webhookEndpoints } from '../api';
import { readFilters } from './filters';
import { assertReachable } from './reachability';
import { prepareMilestones } from './scanMilestones';
import { assertDashboardSecret, endpointMode } from './secret';
import type { RegisteredEndpoint } from './state';
import { registeredEndpoint, storeEndpoint, waitForRetiredEndpoint } from './state';
import { isValidSecret, webhookSecretOf } from '../shared/secrets';

/**
 * The webhook endpoint at the service, as n8n activates and deactivates the workflow. In
 * dashboard mode the user owns the endpoint, and nothing is registered or removed.
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
function checkedFilters(ctx: IHookFunctions) {
	const filters = readFilters(ctx);
	if (filters.events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
			description: 'Choose at least one event in "Trigger On" before activating the workflow.',
		});
	}
	return filters;
}

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

/** An activation in automatic mode, checked, its milestones prepared, and the endpoints listed. */
async function activation(ctx: IHookFunctions) {
	const client = new ApiClient(ctx);
	const url = webhookUrlOf(ctx);
	const filters = checkedFilters(ctx);
	assertReachable(ctx, url, (await client.connection()).baseUrl);
	await prepareMilestones(ctx, filters);
	return { client, url, events: filters.events, endpoints: await listEndpoints(client) };
}

/**
 * Removes the endpoint this node registered and any other at its webhook URL (whose secret is
 * unknown here); returns the ids whose removal failed.
 */
async function removeAll(
	client: ApiClient,
	registeredId: string | undefined,
	atUrl: WebhookEndpoint[],
): Promise<string[]> {
	const failed: string[] = [];
	for (const id of new Set([registeredId, ...atUrl.map((endpoint) => endpoint.id)])) {
		if (!id) continue;
		const problem = await deleteEndpoint(client, id);
		if (!problem) continue;
		failed.push(id);
		client.ctx.logger.warn(
			`Dynamic QR Trigger: could not remove webhook endpoint ${id}: ${problem}. Remove it in the service's dashboard if it stays.`,
		);
	}
	return failed;
}

/** Whether the endpoint this node registered is still at the service, unchanged and active. */
export async function endpointExists(ctx: IHookFunctions): Promise<boolean> {
	if (endpointMode(ctx) === 'dashboard') {
		await prepareMilestones(ctx, checkedFilters(ctx));
		await assertDashboardSecret(ctx);
		return true;
	}
	const registered = registeredEndpoint(ctx);
	const { url, events, endpoints } = await activation(ctx);
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

/** Registers the webhook URL with the chosen events, after removing outdated endpoints. */
export async function registerEndpoint(ctx: IHookFunctions): Promise<boolean> {
	if (endpointMode(ctx) === 'dashboard') return true;
	const previousId = registeredEndpoint(ctx).id;
	const { client, url, events, endpoints } = await activation(ctx);
	await removeAll(
		client,
		previousId,
		endpoints.filter((endpoint) => endpoint.url === url),
	);
	await waitForRetiredEndpoint(ctx, Date.now());
	storeEndpoint(ctx, {});

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
	storeEndpoint(ctx, { id, secret, url, events });
	return true;
}

/**
 * At deactivation (in dashboard mode, only an endpoint this node registered before). An endpoint
 * whose removal failed keeps its id, so that the next activation removes it.
 */
export async function removeEndpoint(ctx: IHookFunctions): Promise<boolean> {
	const client = new ApiClient(ctx);
	const registeredId = registeredEndpoint(ctx).id;
	let atUrl: WebhookEndpoint[] = [];
	if (endpointMode(ctx) === 'automatic') {
		try {
			const url = webhookUrlOf(ctx);
			atUrl = (await listEndpoints(client)).filter((endpoint) => endpoint.url === url);
		} catch (error) {
			ctx.logger.warn(
				`Dynamic QR Trigger: could not list webhook endpoints to clean up: ${(error as Error).message}`,
			);
		}
	}
	const failed = await removeAll(client, registeredId, atUrl);
	const keepId = registeredId && failed.includes(registeredId) ? registeredId : undefined;
	storeEndpoint(ctx, { id: keepId }, Date.now());
	return failed.length === 0;
}
