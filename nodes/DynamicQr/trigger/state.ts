import { type IDataObject, type IHookFunctions, type IWebhookFunctions, sleep } from 'n8n-workflow';

/**
 * The trigger's static data, in the keys and formats of 0.1.0 and 0.2.0: the endpoint this node
 * registered (its secret never logged or output) and when the last one it used was removed (ms);
 * the ledger's keys (ledger.ts). A key is written only when it changes: n8n saves only then.
 */
interface StoredTrigger {
	endpointId?: string;
	secret?: string;
	url?: string;
	events?: string[];
	retiredAt?: number;
	deliveries?: string;
	scanMilestones?: { baseline: string; claims: string };
	missedSince?: number;
	seenAt?: number;
	catchUpTicket?: number;
}

export type TriggerContext = IHookFunctions | IWebhookFunctions;

export const storedOf = (ctx: TriggerContext) => ctx.getWorkflowStaticData('node') as StoredTrigger;

/** As far as it is known: a failed removal keeps only the id, for the next activation to remove. */
export function registeredEndpoint(ctx: TriggerContext) {
	const { endpointId: id, secret, url, events } = storedOf(ctx);
	return { id, secret, url, events };
}

/** `{}` forgets the endpoint (the record of deliveries stays). */
export function storeEndpoint(
	ctx: IHookFunctions,
	{ id: endpointId, secret, url, events }: Partial<ReturnType<typeof registeredEndpoint>>,
	retiredAt?: number,
): void {
	const state = storedOf(ctx);
	if (state.endpointId && retiredAt !== undefined) state.retiredAt = retiredAt;
	for (const [key, value] of Object.entries({ endpointId, secret, url, events })) {
		if (value) (state as IDataObject)[key] = value;
		else delete (state as IDataObject)[key];
	}
}

/** How long a webhook request may hold its copy of the static data: the service's deadline. */
export const IN_FLIGHT_MS = 10_000;

/** Forgets the endpoint once no request holding its secret can save it (docs/n8n-behaviours.md, 9). */
export async function forgetEndpoint(ctx: IHookFunctions, nowMs = Date.now()): Promise<void> {
	const state = storedOf(ctx);
	const retired = state.endpointId ? nowMs : Number(state.retiredAt ?? 0);
	if (retired + IN_FLIGHT_MS > nowMs) await sleep(retired + IN_FLIGHT_MS - nowMs);
	delete state.retiredAt;
	storeEndpoint(ctx, {});
}
