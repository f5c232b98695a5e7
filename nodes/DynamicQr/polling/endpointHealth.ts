import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { webhookEndpoints, type ApiClient, type WebhookEndpoint } from '../api';
import { pollingParameters } from './pollingProperties';
import { emit, loadEndpointCursor, saveEndpointCursor } from './pollState';

const PROBE_TIMEOUT_MS = 10_000;
/** A Dynamic QR Trigger's production URL ends in /<webhookId, a UUID>/webhook (its path). */
const TRIGGER_PATH = /\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/webhook$/i;
/** Only such addresses are sent a test request: another service's receiver might act on it. */
const isTriggerAddress = (url: string) => TRIGGER_PATH.test(url.split(/[?#]/)[0]);

/**
 * An unsigned POST, which a Dynamic QR Trigger refuses with 401: undefined when answered, null when
 * not checked, else why not (no answer; 404, 410: no webhook in n8n; 5xx: a broken proxy).
 */
async function probe(ctx: IPollFunctions, client: ApiClient, url: string) {
	// What the poll's budget cannot wait for is not checked: a cut-off wait is no answer.
	const timeoutMs = Math.min(PROBE_TIMEOUT_MS, client.msLeft() - 1000);
	if (timeoutMs < 1000) return null;
	try {
		const { statusCode: status } = (await ctx.helpers.httpRequest({
			method: 'POST',
			url,
			body: '{}',
			headers: { 'content-type': 'application/json' },
			returnFullResponse: true,
			ignoreHttpStatusErrors: true,
			timeout: timeoutMs,
		})) as { statusCode: number };
		return status === 404 || status === 410 || status >= 500 ? `HTTP ${status}` : undefined;
	} catch (error) {
		const { code, message } = error as { code?: string; message?: string };
		return code ?? message ?? 'no answer';
	}
}

/** Webhook Endpoint Stopped (docs/triggers.md): paused, removed or unreachable, once per spell. */
export async function pollEndpointHealth(ctx: IPollFunctions, client: ApiClient) {
	const checkAddresses = pollingParameters(ctx).boolean('checkAddresses');
	const key = `endpointStopped|${checkAddresses}`;
	const isManual = ctx.getMode() === 'manual';
	const saved = isManual ? undefined : loadEndpointCursor(ctx, key);
	const endpoints = webhookEndpoints(await client.all('/webhooks'));
	const checkedAt = new Date().toISOString();

	const reasonOf = async ({ active, url }: WebhookEndpoint) => {
		if (!active) return { reason: 'paused' as const, detail: undefined };
		const detail =
			checkAddresses && url && isTriggerAddress(url) && (await probe(ctx, client, url));
		return typeof detail === 'string' ? { reason: 'unreachable' as const, detail } : undefined;
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
	// A spell begins after the poll that last saw the endpoint otherwise (first poll: activation).
	const spellAfter = isManual ? checkedAt : (saved?.checkedAt ?? 'activation');
	const item = (endpoint: WebhookEndpoint, reason: string, detail?: string): IDataObject => ({
		id: endpoint.id,
		url: endpoint.url ?? null,
		events: endpoint.events ?? null,
		status: endpoint.status ?? null,
		reason,
		detail: detail ?? null,
		checked_at: checkedAt,
		event_key: `endpoint_stopped:${endpoint.id}:${reason}:${spellAfter}`,
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

	const watched = endpoints.flatMap(({ id, url }, index) =>
		url === undefined ? [] : [{ id, url, stopped: now[index]?.reason }],
	);
	if (!isManual) saveEndpointCursor(ctx, { key, endpoints: watched, checkedAt });
	return emit(ctx, items, [
		'No webhook endpoint has stopped',
		`The account's ${endpoints.length} endpoint(s) are active${checkAddresses ? ' and their addresses answer' : ''}.`,
	]);
}
