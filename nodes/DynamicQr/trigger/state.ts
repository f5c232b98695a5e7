import type { IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import type { MilestoneClaim } from './milestoneClaims';
import { claimMilestones, repairClaims } from './milestoneClaims';
import { recordDelivery, repairRecord, type RecordedDelivery } from './repeats';

/**
 * The trigger's static data: the only code that reads or writes it. What n8n must do around a
 * request for its record to start each delivery once (when it loads and saves static data) is
 * listed in docs/n8n-behaviours.md, each behaviour with the tests that pin it. Saved workflows and live
 * activations hold it, so its keys and formats are those of version 0.1.0 and never change:
 * - `endpointId`, `secret`, `url`, `events`: the endpoint this node registered, and its signing
 *   secret (never logged or put in any output);
 * - `retiredAt`: when the last endpoint this node used was removed (ms);
 * - `deliveries`: the record of deliveries that started the workflow (format in repeats.ts);
 * - `scanMilestones` (added in 0.2.0, "Only at Scan Milestones"): `baseline`, the settings the
 *   claims belong to, and `claims`, the milestones each code has claimed (milestoneClaims.ts).
 */
interface StoredTrigger {
	endpointId?: string;
	secret?: string;
	url?: string;
	events?: string[];
	retiredAt?: number;
	deliveries?: string;
	scanMilestones?: StoredMilestones;
}

interface StoredMilestones {
	baseline: string;
	claims: string;
}

type TriggerContext = IHookFunctions | IWebhookFunctions;

export interface RegisteredEndpoint {
	id: string;
	secret: string;
	url: string;
	events: string[];
}

const stored = (ctx: TriggerContext) => ctx.getWorkflowStaticData('node') as StoredTrigger;

/** The endpoint this node registered, as far as it is known (a failed removal keeps only its id). */
export function registeredEndpoint(ctx: TriggerContext): Partial<RegisteredEndpoint> {
	const { endpointId, secret, url, events } = stored(ctx);
	return { id: endpointId, secret, url, events };
}

export function rememberEndpoint(ctx: IHookFunctions, endpoint: RegisteredEndpoint): void {
	const state = stored(ctx);
	state.endpointId = endpoint.id;
	state.secret = endpoint.secret;
	state.url = endpoint.url;
	state.events = endpoint.events;
}

/**
 * Forgets the endpoint; the record of deliveries stays, so repeats are still recognised. On
 * removal, `retiredAt` notes when a registered endpoint was retired, and `keepId` keeps the id
 * of an endpoint whose removal failed, so that the next activation removes it.
 */
export function forgetEndpoint(
	ctx: IHookFunctions,
	{ retiredAt, keepId }: { retiredAt?: number; keepId?: string } = {},
): void {
	const state = stored(ctx);
	if (state.endpointId && retiredAt !== undefined) state.retiredAt = retiredAt;
	delete state.endpointId;
	delete state.secret;
	delete state.url;
	delete state.events;
	if (keepId) state.endpointId = keepId;
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
export async function waitForRetiredEndpoint(ctx: IHookFunctions, nowMs: number): Promise<void> {
	const state = stored(ctx);
	const retired = state.endpointId ? nowMs : Number(state.retiredAt ?? 0);
	const wait = retired + IN_FLIGHT_MS - nowMs;
	if (wait > 0) await sleep(wait);
	delete state.retiredAt;
}

/** The record of deliveries as stored ('' before the first). */
const storedRecord = (state: StoredTrigger): string =>
	typeof state.deliveries === 'string' ? state.deliveries : '';

/** Which trigger a process's memory of deliveries belongs to: the workflow and the node. */
export function triggerKey(ctx: IWebhookFunctions): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

/**
 * Writes into the record of deliveries the started ids this process knows and the stored copy
 * lacks (lost to another processor's save, see repeats.ts), and into the scan milestones the
 * started claims it lacks. True when either lacked any: the static data changed and n8n saves it.
 */
export function repairRecords(ctx: IWebhookFunctions, nowMs: number): boolean {
	const state = stored(ctx);
	const trigger = triggerKey(ctx);
	const before = storedRecord(state);
	const record = repairRecord(before, trigger, nowMs);
	if (record !== before) state.deliveries = record;
	const milestones = storedMilestones(state);
	const claims = milestones && repairClaims(milestones.claims, trigger, milestones.baseline);
	if (milestones && claims !== milestones.claims) {
		state.scanMilestones = { baseline: milestones.baseline, claims: claims ?? '' };
	}
	return record !== before || claims !== milestones?.claims;
}

export interface CheckedDelivery extends Pick<RecordedDelivery, 'repeat' | 'answered'> {
	/**
	 * n8n has started the workflow for this delivery: stores the record with all this process
	 * knows by now, and marks the static data changed again. n8n 2.x builds another Workflow over
	 * the same static data when it starts the execution, and that clears the flag its save (after
	 * the execution, before the answer) looks at: called while n8n reads the answer, which it does
	 * between the two, it keeps the record from being left unsaved.
	 */
	started: () => void;
}

/**
 * Checks this delivery against the record of deliveries that started the workflow, here or in
 * another n8n process, and records it when new (see repeats.ts). The static data changes only
 * when the record does, so that n8n saves it only then.
 */
export function checkDelivery(
	ctx: IWebhookFunctions,
	webhookId: string,
	nowMs: number,
): CheckedDelivery {
	const state = stored(ctx);
	const before = storedRecord(state);
	const delivery = recordDelivery(before, triggerKey(ctx), webhookId, nowMs);
	const store = () => {
		const record = delivery.record();
		if (record !== before) state.deliveries = record;
	};
	store();
	return {
		repeat: delivery.repeat,
		answered: delivery.answered,
		started() {
			delivery.started();
			store();
		},
	};
}

/** The stored scan milestones, when they are well-formed. */
function storedMilestones(state: StoredTrigger): StoredMilestones | undefined {
	const milestones = state.scanMilestones;
	return milestones &&
		typeof milestones.baseline === 'string' &&
		typeof milestones.claims === 'string'
		? milestones
		: undefined;
}

/** Whether the stored scan milestones belong to `baseline` (the settings they were made for). */
export function hasMilestoneBaseline(ctx: IHookFunctions, baseline: string): boolean {
	return storedMilestones(stored(ctx))?.baseline === baseline;
}

/** Stores a new baseline: the milestones each code had passed when it was made. */
export function storeMilestoneBaseline(
	ctx: IHookFunctions,
	baseline: string,
	claims: string,
): void {
	stored(ctx).scanMilestones = { baseline, claims };
}

/**
 * Claims the milestones a code's count reached that no delivery claimed, here or in another n8n
 * process (see milestoneClaims.ts); undefined when no baseline for `baseline` is stored. The
 * static data changes only when the claims do, and again when n8n starts the workflow (as for
 * the record of deliveries: see CheckedDelivery).
 */
export function checkMilestones(
	ctx: IWebhookFunctions,
	baseline: string,
	codeId: string,
	milestones: number[],
	scans: number,
): MilestoneClaim | undefined {
	const state = stored(ctx);
	const before = storedMilestones(state);
	if (before?.baseline !== baseline) return undefined;
	const claim = claimMilestones(
		before.claims,
		triggerKey(ctx),
		baseline,
		codeId,
		milestones,
		scans,
	);
	const store = () => {
		const claims = claim.claims();
		if (claims !== before.claims) state.scanMilestones = { baseline, claims };
	};
	store();
	return {
		...claim,
		started() {
			claim.started();
			store();
		},
	};
}
