import { type IDataObject, type IWebhookFunctions, sleep } from 'n8n-workflow';

import {
	ApiClient,
	createdAtOrBefore,
	createdRecordKey,
	DEFAULT_PLAN_SHARE_PERCENT,
	timeMs,
} from '../api';
import type { Ledger } from './ledger';
import { IN_FLIGHT_MS, type TriggerContext } from './state';
import { missedMilestones, watchesMilestones } from './scanMilestones';
import { filterOut, type DeliveryFilters, type TriggerSettings } from './filters';
import type { Outcome } from './receive';
import { scheduleResync, sendSigned } from './selfRequest';

/**
 * The catch-up (docs/triggers.md, "The ledger"): what a paused or gone endpoint or a silence missed
 * and the ledger has not started. It reads with the API credential: not in dashboard mode.
 */
export const CATCH_UP_TYPE = 'n8n-nodes-dynamic-qr.catchUp';
const CAUGHT_UP_EVENTS = ['lead.created', 'qr_code.created'];
/** n8n may route the new webhook a moment after create() returns; 1 + 2 + 4 + 8 + 16 s in all. */
const ATTEMPTS = 5;
/** Its reads wait out rate limits: no answer in this time counts as running, not as lost. */
const ANSWER_TIMEOUT_MS = 15 * 60_000;
/** The service retries after 1, 5, 30, 120 and 360 minutes: a longer silence may have lost some. */
const RETRY_SPAN_MS = (1 + 5 + 30 + 120 + 360) * 60_000;

type CatchUp = { since: number; ticket?: number };

export const catchesUp = (mode: TriggerSettings['mode'], filters: DeliveryFilters) =>
	mode === 'automatic' &&
	(filters.events.some((event) => CAUGHT_UP_EVENTS.includes(event)) || watchesMilestones(filters));

/**
 * A delivery after a silence longer than the service retries (n8n away, fewer than 20 events lost,
 * so the endpoint stayed active): the catch-up is due, once, whichever processors see the silence.
 */
export function noticeSilence(
	ctx: IWebhookFunctions,
	mode: TriggerSettings['mode'],
	filters: DeliveryFilters,
	ledger: Ledger,
	secret: unknown,
	nowMs: number,
): void {
	const seenAt = ledger.seenAt() ?? nowMs;
	const silent = nowMs - seenAt > RETRY_SPAN_MS && ctx.getMode() !== 'manual';
	if (!silent || ledger.missedSince() !== undefined || !catchesUp(mode, filters)) return;
	const ticket = nowMs + Math.random();
	ledger.markMissed(ticket);
	scheduleResync(ctx, secret);
	// The webhook's own URL is asked for only when a catch-up is due, not on every delivery.
	const ownUrl = ctx.getNodeWebhookUrl('default');
	if (ownUrl) scheduleCatchUp(ctx, ownUrl, secret, { since: seenAt, ticket });
}

/** The catch-up's door: the items of its run, or why it starts none. */
export async function caughtUp(
	ctx: IWebhookFunctions,
	ledger: Ledger,
	event: IDataObject,
	filters: DeliveryFilters,
): Promise<IDataObject[] | Outcome> {
	if (!ledger.runsCatchUp(event.ticket)) return 'another catch-up runs';
	const missed = await missedEvents(ctx, ledger, event.since, filters).catch(
		(error: Error) => error,
	);
	if (missed instanceof Error) return { kind: 'later', why: missed.message };
	ledger.caughtUp();
	return missed.length ? missed : 'nothing was missed';
}

/** A timeout: the catch-up was received and is still reading; sending it again would run it twice. */
const stillRunning = (error: { code?: unknown }) =>
	error.code === 'ECONNABORTED' || error.code === 'ETIMEDOUT';

/** Sends the catch-up (since: ms; a silence's ticket) to the trigger's own webhook, or logs. */
export function scheduleCatchUp(ctx: TriggerContext, url: string, secret: unknown, due: CatchUp) {
	const event = { type: CATCH_UP_TYPE, ...due };
	const options = { idPrefix: 'catchup', timeoutMs: ANSWER_TIMEOUT_MS };
	void (async () => {
		// Until every save of a drawn ticket landed and the resync's last round wrote it back.
		if (due.ticket) await sleep(3 * IN_FLIGHT_MS);
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			await sleep(1000 * 2 ** attempt);
			if (await sendSigned(ctx, url, secret, event, options).then(() => true, stillRunning)) return;
		}
		ctx.logger.warn(
			`Dynamic QR Trigger: the catch-up of leads and codes created since ${new Date(due.since).toISOString()} could not reach ${url}; deactivate and activate the workflow to try again`,
		);
	})();
}

/** An item shaped as a delivery's, for what the service would have delivered; `key` names it. */
function missedItem(type: string, data: IDataObject, key: string, fields?: IDataObject) {
	const record = type === 'lead.created' ? (data.lead as IDataObject) : data;
	return {
		id: `caught_up:${key}`,
		type,
		created_at: (type === 'scan.created' ? data.scanned_at : record.created_at) ?? null,
		data,
		webhook_id: null,
		webhook_timestamp: null,
		event_key: key,
		...fields,
		caught_up: true,
	};
}

/** What the filters take and `ledger` has not started (claimed now); none without `since` (ms). */
async function missedEvents(
	ctx: IWebhookFunctions,
	ledger: Ledger,
	since: unknown,
	filters: DeliveryFilters,
) {
	if (typeof since !== 'number' || !Number.isFinite(since)) return [];
	const sinceMs = ledger.readsFrom(since);
	// Paced at a poll's share, not budgeted: it runs once, and a read cut off would lose records.
	const client = new ApiClient(ctx, { pace: { sharePercent: DEFAULT_PLAN_SHARE_PERCENT } });
	const missed: IDataObject[] = [];
	const record = (type: string, data: IDataObject) => {
		const key = createdRecordKey(type, data);
		if (!key || ledger.has([key])) return;
		ledger.claim(key);
		missed.push(missedItem(type, data, key));
	};
	if (filters.events.includes('lead.created')) {
		const cards = await client.all('/cards');
		const watched = cards.filter((card) => !filterOut('lead.created', { card }, filters));
		const leadsOf = async (card: IDataObject) =>
			client.since(`/cards/${encodeURIComponent(String(card.id))}/leads`, sinceMs);
		// Oldest first (lists come newest first): records of one time stay in the order made.
		for (const [index, leads] of (await Promise.all(watched.map(leadsOf))).entries())
			for (const lead of leads.reverse()) record('lead.created', { card: watched[index], lead });
	}
	if (filters.events.includes('qr_code.created')) {
		const isPast = createdAtOrBefore(sinceMs);
		for (const code of (await client.all('/qr-codes', {}, undefined, { isPast })).reverse()) {
			if (!filterOut('qr_code.created', code, filters)) record('qr_code.created', code);
		}
	}
	for (const { id, data, fields } of await missedMilestones(client, ledger, filters))
		missed.push(missedItem('scan.created', data, id, fields));
	const at = (item: IDataObject) => timeMs(item.created_at) || Infinity;
	return missed.sort((a, b) => at(a) - at(b));
}
