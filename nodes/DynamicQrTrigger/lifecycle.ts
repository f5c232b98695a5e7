import type { IDataObject, IHookFunctions } from 'n8n-workflow';
import { NodeOperationError, sleep } from 'n8n-workflow';

import { apiRequest, apiRequestAllItems, getBaseUrl } from '../DynamicQr/transport';
import { normaliseEvents, sameEvents } from './events';
import { webhookReachabilityProblem } from './reachability';
import { isValidSecret } from './signature';

/**
 * What the trigger keeps in the node's static data while active. The secret is needed to
 * verify deliveries; it is never logged or put in any output.
 */
export interface EndpointState extends IDataObject {
	endpointId?: string;
	secret?: string;
	url?: string;
	events?: string[];
	/** When the last endpoint this node used was removed (ms). */
	retiredAt?: number;
}

export interface RemoteEndpoint extends IDataObject {
	id: string;
	url?: string;
	events?: string[];
	status?: string;
}

export function endpointState(ctx: IHookFunctions): EndpointState {
	return ctx.getWorkflowStaticData('node') as EndpointState;
}

/** Forgets the endpoint; the record of deliveries stays, so repeats are still recognised. */
export function clearEndpointState(state: EndpointState): void {
	delete state.endpointId;
	delete state.secret;
	delete state.url;
	delete state.events;
}

/**
 * How long a webhook request may hold its copy of the static data, loaded before it runs and
 * saved whole after it: the service's 10 s answer deadline.
 */
export const IN_FLIGHT_MS = 10_000;

/**
 * Before a new signing secret is stored: waits until no request that loaded the old one can
 * still save it. A delivery of the old endpoint being answered on a webhook processor saves the
 * static data it loaded (with the old secret) when it finishes; stored after that, the new secret
 * is safe. Waits only when this node used an endpoint within the last IN_FLIGHT_MS.
 */
export async function waitForRetiredEndpoint(state: EndpointState, nowMs: number): Promise<void> {
	const retired = state.endpointId ? nowMs : Number(state.retiredAt ?? 0);
	const wait = retired + IN_FLIGHT_MS - nowMs;
	if (wait > 0) await sleep(wait);
	delete state.retiredAt;
}

export function webhookUrlOf(ctx: IHookFunctions): string {
	const url = ctx.getNodeWebhookUrl('default');
	if (!url) {
		throw new NodeOperationError(
			ctx.getNode(),
			'n8n did not provide a webhook URL for this trigger',
		);
	}
	return url;
}

export function selectedEvents(ctx: IHookFunctions): string[] {
	const events = normaliseEvents(ctx.getNodeParameter('events', []));
	if (events.length === 0) {
		throw new NodeOperationError(ctx.getNode(), 'No event is selected', {
			description: 'Choose at least one event in "Trigger On" before activating the workflow.',
		});
	}
	return events;
}

/** Every webhook endpoint of the workspace, all pages. */
export async function listEndpoints(ctx: IHookFunctions): Promise<RemoteEndpoint[]> {
	const records = await apiRequestAllItems(ctx, '/webhooks');
	return records.filter((record): record is RemoteEndpoint => typeof record.id === 'string');
}

function httpCodeOf(error: unknown): string | undefined {
	const code = (error as { httpCode?: unknown } | undefined)?.httpCode;
	return code === undefined || code === null ? undefined : String(code);
}

/** DELETE one endpoint; a 404 means it is already gone. Returns an error text on failure. */
export async function deleteEndpoint(ctx: IHookFunctions, id: string): Promise<string | undefined> {
	try {
		await apiRequest(ctx, 'DELETE', `/webhooks/${encodeURIComponent(id)}`);
		return undefined;
	} catch (error) {
		if (httpCodeOf(error) === '404') return undefined;
		return (error as Error).message ?? String(error);
	}
}

/** Whether the endpoint at the service is the one this node registered, usable as it is. */
export function isUsable(
	remote: RemoteEndpoint | undefined,
	state: EndpointState,
	url: string,
	events: string[],
): boolean {
	return (
		remote !== undefined &&
		remote.id === state.endpointId &&
		remote.url === url &&
		sameEvents(remote.events, events) &&
		remote.status !== 'paused' &&
		isValidSecret(state.secret)
	);
}

export async function assertReachable(ctx: IHookFunctions, url: string): Promise<void> {
	const problem = webhookReachabilityProblem(url, await getBaseUrl(ctx));
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
