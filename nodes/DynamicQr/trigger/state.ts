import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { claimMilestones, repairClaims } from './milestoneClaims';
import { recordDelivery, repairRecord } from './repeats';

/**
 * The trigger's static data: the only code that reads or writes it (what n8n must do around a
 * request for it: docs/n8n-behaviours.md). Saved workflows and live activations hold it, so its
 * keys and formats are those of version 0.1.0 and never change: `endpointId`, `secret`, `url`,
 * `events` (the endpoint this node registered; the secret is never logged or output), `retiredAt`
 * (when the last endpoint this node used was removed, ms), `deliveries` (repeats.ts) and, since
 * 0.2.0, `scanMilestones`: `baseline` (the settings the claims belong to) and `claims`
 * (milestoneClaims.ts), `seenAt` (ms: the last delivery that started the workflow, or the
 * registration) and `missedSince` (ms: the endpoint was found paused or gone; catchUp.ts). A
 * record is written only when it changes: n8n saves only then.
 */
interface StoredTrigger {
	endpointId?: string;
	secret?: string;
	url?: string;
	events?: string[];
	retiredAt?: number;
	deliveries?: string;
	scanMilestones?: { baseline: string; claims: string };
	seenAt?: number;
	missedSince?: number;
}

export type TriggerContext = IHookFunctions | IWebhookFunctions;

const stored = (ctx: TriggerContext) => ctx.getWorkflowStaticData('node') as StoredTrigger;

/** As far as it is known: a failed removal keeps only the id, for the next activation to remove. */
export function registeredEndpoint(ctx: TriggerContext) {
	const { endpointId: id, secret, url, events } = stored(ctx);
	return { id, secret, url, events };
}

/** `{}` forgets the endpoint (the record of deliveries stays). */
export function storeEndpoint(
	ctx: IHookFunctions,
	{ id: endpointId, secret, url, events }: Partial<ReturnType<typeof registeredEndpoint>>,
	retiredAt?: number,
): void {
	const state = stored(ctx);
	if (state.endpointId && retiredAt !== undefined) state.retiredAt = retiredAt;
	for (const [key, value] of Object.entries({ endpointId, secret, url, events })) {
		if (value) (state as IDataObject)[key] = value;
		else delete (state as IDataObject)[key];
	}
}

/** How long a webhook request may hold its copy of the static data: the service's deadline. */
export const IN_FLIGHT_MS = 10_000;

/** Until no request that loaded the old secret can still save it (docs/n8n-behaviours.md, 9). */
export async function waitForRetiredEndpoint(ctx: IHookFunctions, nowMs: number): Promise<void> {
	const state = stored(ctx);
	const retired = state.endpointId ? nowMs : Number(state.retiredAt ?? 0);
	if (retired + IN_FLIGHT_MS > nowMs) await sleep(retired + IN_FLIGHT_MS - nowMs);
	delete state.retiredAt;
}

/** Which trigger a process's memory belongs to: the workflow and the node. */
export function triggerKey(ctx: IWebhookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

function records(ctx: TriggerContext) {
	const state = stored(ctx);
	const { deliveries, scanMilestones: milestones } = state;
	const wellFormed =
		typeof milestones?.baseline === 'string' && typeof milestones.claims === 'string';
	const record = typeof deliveries === 'string' ? deliveries : '';
	return { state, record, milestones: wellFormed ? milestones : undefined };
}

/** Writes back into the stored records what this process knows they lack; true when any. */
export function repairRecords(ctx: IWebhookFunctions, nowMs: number): boolean {
	const { state, record, milestones } = records(ctx);
	const trigger = triggerKey(ctx);
	const repaired = repairRecord(record, trigger, nowMs);
	if (repaired !== record) state.deliveries = repaired;
	const { baseline = '', claims = '' } = milestones ?? {};
	const claimed = milestones ? repairClaims(claims, trigger, baseline) : claims;
	if (claimed !== claims) state.scanMilestones = { baseline, claims: claimed };
	return repaired !== record || claimed !== claims;
}

/** Stored now and again after starting the run cleared the flag (docs/n8n-behaviours.md, 6). */
function storedNowAndOnStart<T extends { started(): void }>(handle: T, store: () => void): T {
	store();
	return {
		...handle,
		started() {
			handle.started();
			store();
		},
	};
}

/** Which of `ids` started the workflow before, here or elsewhere; the others are recorded. */
export function checkDelivery(ctx: IWebhookFunctions, ids: string[], nowMs: number) {
	const { state, record } = records(ctx);
	const delivery = recordDelivery(record, triggerKey(ctx), ids, nowMs);
	return storedNowAndOnStart(delivery, () => {
		const next = delivery.record();
		if (next === record) return;
		state.deliveries = next;
		state.seenAt = Math.max(state.seenAt ?? 0, nowMs);
	});
}

/** The endpoint was found paused or gone: what came after the last delivery seen was missed. */
export function markMissed(ctx: IHookFunctions): void {
	const state = stored(ctx);
	state.missedSince ??= state.seenAt;
}

/**
 * When the last delivery was seen, if that was longer than `spanMs` ago: the first delivery after
 * such a silence takes it (it counts as seen now), so one catch-up is sent for it.
 */
export function takeSilence(ctx: IWebhookFunctions, nowMs: number, spanMs: number) {
	const state = stored(ctx);
	const since = state.seenAt;
	if (since === undefined || nowMs - since <= spanMs) return undefined;
	state.seenAt = nowMs;
	return since;
}

/** Since when to catch up (once: the mark is taken) for a new endpoint, which counts as seen now. */
export function takeMissed(ctx: IHookFunctions, nowMs: number): number | undefined {
	const state = stored(ctx);
	const since = state.missedSince;
	delete state.missedSince;
	state.seenAt = nowMs;
	return since;
}

export const hasMilestoneBaseline = (ctx: IHookFunctions, baseline: string) =>
	records(ctx).milestones?.baseline === baseline;

export function storeMilestoneBaseline(ctx: IHookFunctions, baseline: string, claims: string) {
	stored(ctx).scanMilestones = { baseline, claims };
}

/** Claims the milestones a code's count reached (undefined without a baseline for `baseline`). */
export function checkMilestones(
	ctx: IWebhookFunctions,
	baseline: string,
	codeId: string,
	milestones: number[],
	scans: number,
) {
	const { state, milestones: old } = records(ctx);
	if (old?.baseline !== baseline) return undefined;
	const claim = claimMilestones(old.claims, triggerKey(ctx), baseline, codeId, milestones, scans);
	return storedNowAndOnStart(claim, () => {
		const claims = claim.claims();
		if (claims !== old.claims) state.scanMilestones = { baseline, claims };
	});
}
