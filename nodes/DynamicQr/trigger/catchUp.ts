import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ApiClient, createdAtOrBefore, createdRecordKey, timeMs } from '../api';
import { filterOut, readFilters } from './triggerProperties';
import { sendSigned } from './selfRequest';

/**
 * The catch-up (README "When n8n was away"): when the trigger registers an endpoint again after
 * the last one was found paused or gone, or a delivery comes after a silence longer than the
 * service's retries, the leads and new codes created since the last delivery it saw start the
 * workflow, once each (keyed as createdRecordKey keys deliveries, so the service's late retries
 * of the same records start nothing). Scans cannot be: the API keeps counts.
 */
export const CATCH_UP_TYPE = 'n8n-nodes-dynamic-qr.catchUp';
const CAUGHT_UP_EVENTS = ['lead.created', 'qr_code.created'];
/** n8n may route the new webhook a moment after create() returns; 1 + 2 + 4 + 8 + 16 s in all. */
const ATTEMPTS = 5;
/** The service retries after 1, 5, 30, 120 and 360 minutes: a longer silence may have lost some. */
export const RETRY_SPAN_MS = (1 + 5 + 30 + 120 + 360) * 60_000;

export const catchesUp = (events: string[]) =>
	events.some((event) => CAUGHT_UP_EVENTS.includes(event));

/** Sends the catch-up to the trigger's own webhook once n8n routes it; a log line if it never does. */
export function scheduleCatchUp(
	ctx: IHookFunctions | IWebhookFunctions,
	url: string,
	secret: unknown,
	sinceMs: number,
) {
	void (async () => {
		for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
			await sleep(1000 * 2 ** attempt);
			const sent = await sendSigned(
				ctx,
				url,
				secret,
				{ type: CATCH_UP_TYPE, since: sinceMs },
				{ idPrefix: 'catchup', timeoutMs: 120_000 },
			).then(
				() => true,
				() => false,
			);
			if (sent) return;
		}
		ctx.logger.warn(
			`Dynamic QR Trigger: the catch-up of leads and codes created since ${new Date(sinceMs).toISOString()} could not reach ${url}; deactivate and activate the workflow to try again`,
		);
	})();
}

/** An item shaped as a delivery's, for a record the service would have delivered. */
function missedItem(type: string, data: IDataObject) {
	const key = createdRecordKey(type, data) ?? '';
	const record = type === 'lead.created' ? (data.lead as IDataObject) : data;
	return {
		key,
		ms: timeMs(record.created_at),
		item: {
			id: `caught_up:${key}`,
			type,
			created_at: record.created_at ?? null,
			data,
			webhook_id: null,
			webhook_timestamp: null,
			caught_up: true,
		},
	};
}

/** The leads and new codes the trigger's events and filters take, created after `sinceMs`. */
export async function missedEvents(ctx: IWebhookFunctions, sinceMs: number) {
	const filters = readFilters(ctx);
	const client = new ApiClient(ctx);
	const missed: Array<ReturnType<typeof missedItem>> = [];
	if (filters.events.includes('lead.created')) {
		const cards = await client.all('/cards');
		const leadsOf = async (card: IDataObject) =>
			(await client.since(`/cards/${encodeURIComponent(String(card.id))}/leads`, sinceMs)).map(
				(lead) => missedItem('lead.created', { card, lead }),
			);
		const watched = cards.filter((card) => !filterOut('lead.created', { card }, filters));
		missed.push(...(await Promise.all(watched.map(leadsOf))).flat());
	}
	if (filters.events.includes('qr_code.created')) {
		const isPast = createdAtOrBefore(sinceMs);
		for (const code of await client.all('/qr-codes', {}, undefined, { isPast })) {
			if (!filterOut('qr_code.created', code, filters))
				missed.push(missedItem('qr_code.created', code));
		}
	}
	return missed
		.filter((event) => event.key !== '')
		.sort(
			(a, b) =>
				(Number.isFinite(a.ms) ? a.ms : Infinity) - (Number.isFinite(b.ms) ? b.ms : Infinity),
		);
}
