import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { webhookEndpoints, type ApiClient, type WebhookEndpoint } from '../api';
import { pollingParameters } from './pollingProperties';
import { loadEndpointCursor, saveEndpointCursor, type WatchedEndpoint } from './pollState';

type Reason = NonNullable<WatchedEndpoint['stopped']>;

const PROBE_TIMEOUT_MS = 10_000;
/** A Dynamic QR Trigger's production URL ends in /<webhookId, a UUID>/webhook (its path). */
const TRIGGER_PATH = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/webhook$/i;
/** Only such addresses are sent a test request: another service's receiver might act on it. */
const isTriggerAddress = (url: string) => TRIGGER_PATH.test(url.split(/[?#]/)[0]);

/**
 * Whether an address has a receiver: an unsigned POST, which a Dynamic QR Trigger refuses with
 * 401 and starts nothing for. No answer, 404 or 410 (n8n: no active webhook there) or a server
 * error (a broken proxy) is the detail of why not; any other answer is a receiver (undefined);
 * null when not checked.
 */
async function probe(ctx: IPollFunctions, client: ApiClient, url: string) {
	// What the poll's budget cannot wait for is not checked: a cut-off wait is no answer.
	const timeoutMs = Math.min(PROBE_TIMEOUT_MS, client.msLeft() - 1000);
	if (timeoutMs < 1000) return null;
	try {
		const answer = (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body: '{}',
			headers: { 'content-type': 'application/json' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: timeoutMs,
		})) as { statusCode: number };
		const status = answer.statusCode;
		return status === 404 || status === 410 || status >= 500 ? `HTTP ${status}` : undefined;
	} catch (error) {
		const { code, message } = error as { code?: string; message?: string };
		return code ?? message ?? 'no answer';
	}
}

/**
 * Webhook Endpoint Stopped: the endpoints of the account that no longer receive, each once per
 * spell. Paused by the service (after failed deliveries); removed while a receiver still answers
 * at its address (deleted in the dashboard while its trigger is active; a deactivated trigger's
 * address answers 404, so its removal is not reported); or, with Check Addresses, active at a
 * trigger's address that does not answer. Endpoints stopped at activation are reported by the
 * first poll.
 */
export async function pollEndpointHealth(ctx: IPollFunctions, client: ApiClient) {
	const checkAddresses = pollingParameters(ctx).boolean('checkAddresses');
	const key = `endpointStopped|${checkAddresses}`;
	const isManual = ctx.getMode() === 'manual';
	const saved = isManual ? undefined : loadEndpointCursor(ctx, key);
	const endpoints = webhookEndpoints(await client.all('/webhooks'));
	const checkedAt = new Date().toISOString();

	const reasonOf = async (endpoint: WebhookEndpoint) => {
		if (!endpoint.active) return { reason: 'paused' as Reason, detail: undefined };
		const { url } = endpoint;
		const detail =
			checkAddresses && url && isTriggerAddress(url) && (await probe(ctx, client, url));
		return typeof detail === 'string' ? { reason: 'unreachable' as Reason, detail } : undefined;
	};
	// Ids and addresses listed now (an id never looks like an address).
	const listed = new Set(endpoints.flatMap((endpoint) => [endpoint.id, endpoint.url]));
	const vanished = (saved?.endpoints ?? []).filter(
		(before) => !listed.has(before.id) && !listed.has(before.url) && isTriggerAddress(before.url),
	);
	const [now, removed] = await Promise.all([
		Promise.all(endpoints.map(reasonOf)),
		Promise.all(
			vanished.map(async (before) => (await probe(ctx, client, before.url)) === undefined),
		),
	]);

	const before = new Map(saved?.endpoints.map((endpoint) => [endpoint.id, endpoint.stopped]));
	const item = (endpoint: WebhookEndpoint, reason: Reason, detail?: string): IDataObject => ({
		id: endpoint.id,
		url: endpoint.url ?? null,
		events: endpoint.events ?? null,
		status: endpoint.status ?? null,
		reason,
		detail: detail ?? null,
		checked_at: checkedAt,
	});
	const items = [
		...endpoints.flatMap((endpoint, index) => {
			const found = now[index];
			const isNew = found && (isManual || before.get(endpoint.id) !== found.reason);
			return isNew ? [item(endpoint, found.reason, found.detail)] : [];
		}),
		...vanished
			.filter((_, index) => removed[index])
			.map(({ id, url }) => item({ id, url, active: false }, 'removed')),
	];

	if (isManual) {
		if (items.length) return [ctx.helpers.returnJsonArray(items)];
		throw new NodeOperationError(ctx.getNode(), 'No webhook endpoint has stopped', {
			description: `The account's ${endpoints.length} endpoint(s) are active${checkAddresses ? ' and their addresses answer' : ''}.`,
		});
	}
	const watched = endpoints.flatMap(({ id, url }, index) =>
		url === undefined ? [] : [{ id, url, stopped: now[index]?.reason }],
	);
	saveEndpointCursor(ctx, { key, endpoints: watched });
	return items.length ? [ctx.helpers.returnJsonArray(items)] : null;
}
