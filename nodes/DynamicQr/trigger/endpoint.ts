import type { IHookFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { WebhookEndpoint } from '../api';
import { ApiClient, isGone, sameEvents, unwrap, webhookEndpoints } from '../api';
import { readFilters } from './filters';
import { assertReachable } from './reachability';
import { prepareMilestones } from './scanMilestones';
import { assertDashboardSecret, endpointMode } from './secret';
import { registeredEndpoint, storeEndpoint, waitForRetiredEndpoint } from './state';
import { isValidSecret, webhookSecretOf } from '../shared/secrets';

/**
 * The webhook endpoint at the service, as n8n activates and deactivates the workflow. In
 * dashboard mode the user owns the endpoint, and nothing is registered or removed.
 */

function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (url) return url;
	throw new NodeOperationError(ctx.getNode(), 'n8n did not provide a webhook URL for this trigger');
}

/** The events and filters, checked: a bad filter, or no event chosen, fails the activation. */
function checkedFilters(ctx: IHookFunctions) {
	const filters = readFilters(ctx);
	if (filters.events.length > 0) return filters;
	throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
		description: 'Choose at least one event in "Trigger On" before activating the workflow.',
	});
}

const listEndpoints = async (client: ApiClient) => webhookEndpoints(await client.all('/webhooks'));

/** DELETE one endpoint; one that is not there is already gone. Returns an error text on failure. */
async function deleteEndpoint(client: ApiClient, id: string): Promise<string | undefined> {
	try {
		await client.request('DELETE', `/webhooks/${encodeURIComponent(id)}`);
	} catch (error) {
		if (!isGone(error)) return (error as Error).message ?? String(error);
	}
	return undefined;
}

/** An activation in automatic mode, checked, its milestones prepared, and the endpoints listed. */
async function activation(ctx: IHookFunctions) {
	const client = new ApiClient(ctx);
	const url = webhookUrlOf(ctx);
	const filters = checkedFilters(ctx);
	assertReachable(ctx, url, (await client.connection()).baseUrl);
	await prepareMilestones(ctx, filters);
	const endpoints = await listEndpoints(client);
	const atUrl = endpoints.filter((endpoint) => endpoint.url === url);
	return { client, url, events: filters.events, endpoints, atUrl };
}

/**
 * Removes the endpoint this node registered and any other at its webhook URL (whose secret is
 * unknown here); returns the ids whose removal failed.
 */
async function removeAll(
	client: ApiClient,
	registeredId: string | undefined,
	atUrl: WebhookEndpoint[],
) {
	const failed: string[] = [];
	for (const id of new Set([registeredId, ...atUrl.map((endpoint) => endpoint.id)])) {
		const problem = id && (await deleteEndpoint(client, id));
		if (!id || !problem) continue;
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
	const { url, events, endpoints, atUrl } = await activation(ctx);
	const byId = endpoints.find((endpoint) => endpoint.id === registered.id);
	// Listed without its events, it counts as having those it was registered with.
	if (
		byId?.url === url &&
		sameEvents(byId.events ?? registered.events, events) &&
		byId.active &&
		isValidSecret(registered.secret)
	) {
		return true;
	}
	if (byId || atUrl.length > 0) {
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
	const { client, url, events, atUrl } = await activation(ctx);
	await removeAll(client, previousId, atUrl);
	await waitForRetiredEndpoint(ctx, Date.now());
	storeEndpoint(ctx, {});

	const answer = await client.request('POST', '/webhooks', { body: { url, events } });
	const id = unwrap(answer).id;
	const secret = webhookSecretOf(answer);
	if (typeof id === 'string' && id && secret) {
		storeEndpoint(ctx, { id, secret, url, events });
		return true;
	}
	if (typeof id === 'string' && id) await deleteEndpoint(client, id);
	throw new NodeOperationError(
		ctx.getNode(),
		'The service registered the webhook endpoint but did not return a usable signing secret',
		{
			description:
				'Deliveries could not be verified, so the endpoint was removed again. Try activating again; if it persists, create the endpoint in the dashboard and use the "Created in the Dashboard" mode.',
		},
	);
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
