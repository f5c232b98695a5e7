import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { ApiClient, createdAtOrBefore, createdRecordKey, timeMs } from '../api';
import type { MilestoneClaim } from './milestoneClaims';
import { missedMilestones, watchesMilestones } from './scanMilestones';
import { filterOut, readFilters, type DeliveryFilters } from './triggerProperties';
import { sendSigned } from './selfRequest';

/**
 * The catch-up (README "When n8n was away"): when the trigger registers an endpoint again after
 * the last one was found paused or gone, or a delivery comes after a silence longer than the
 * service's retries, the leads and new codes created since the last delivery it saw start the
 * workflow, once each (keyed as createdRecordKey keys deliveries, so the service's late retries
 * of the same records start nothing). Scans cannot be: the API keeps counts, so "Only at Scan
 * Milestones" claims the milestones codes passed meanwhile, once, as a scan would.
 */
export const CATCH_UP_TYPE = 'n8n-nodes-dynamic-qr.catchUp';
const CAUGHT_UP_EVENTS = ['lead.created', 'qr_code.created'];
/** n8n may route the new webhook a moment after create() returns; 1 + 2 + 4 + 8 + 16 s in all. */
const ATTEMPTS = 5;
/** The service retries after 1, 5, 30, 120 and 360 minutes: a longer silence may have lost some. */
export const RETRY_SPAN_MS = (1 + 5 + 30 + 120 + 360) * 60_000;
const CLOCK_MARGIN_MS = 5 * 60_000;

export const catchesUp = (filters: DeliveryFilters) =>
	filters.events.some((event) => CAUGHT_UP_EVENTS.includes(event)) || watchesMilestones(filters);

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

type Missed = { key?: string; claim?: MilestoneClaim; ms: number; item: IDataObject };

/** An item shaped as a delivery's, for what the service would have delivered; `id` names it. */
function missedItem(type: string, data: IDataObject, id: string, fields?: IDataObject): Missed {
	const record = type === 'lead.created' ? (data.lead as IDataObject) : data;
	const at = type === 'scan.created' ? data.scanned_at : record.created_at;
	return {
		ms: timeMs(at),
		item: {
			id: `caught_up:${id}`,
			type,
			created_at: at ?? null,
			data,
			webhook_id: null,
			webhook_timestamp: null,
			...fields,
			caught_up: true,
		},
	};
}

/** What the events and filters take: leads and codes created after `sinceMs`, milestones passed. */
export async function missedEvents(ctx: IWebhookFunctions, seenMs: number) {
	// `seenMs` is n8n's clock, `created_at` the service's: read from a little earlier; what was
	// delivered in that margin is in the delivery record under its key and starts nothing.
	const sinceMs = seenMs - CLOCK_MARGIN_MS;
	const filters = readFilters(ctx);
	const client = new ApiClient(ctx);
	const missed: Missed[] = [];
	const record = (type: string, data: IDataObject) => {
		const key = createdRecordKey(type, data);
		if (key) missed.push({ ...missedItem(type, data, key), key });
	};
	if (filters.events.includes('lead.created')) {
		const cards = await client.all('/cards');
		const leadsOf = async (card: IDataObject) =>
			client.since(`/cards/${encodeURIComponent(String(card.id))}/leads`, sinceMs);
		const watched = cards.filter((card) => !filterOut('lead.created', { card }, filters));
		const leads = await Promise.all(watched.map(leadsOf));
		watched.forEach((card, index) =>
			leads[index].forEach((lead) => record('lead.created', { card, lead })),
		);
	}
	if (filters.events.includes('qr_code.created')) {
		const isPast = createdAtOrBefore(sinceMs);
		for (const code of await client.all('/qr-codes', {}, undefined, { isPast })) {
			if (!filterOut('qr_code.created', code, filters)) record('qr_code.created', code);
		}
	}
	for (const { id, data, claim, fields } of await missedMilestones(ctx, filters))
		missed.push({ ...missedItem('scan.created', data, id, fields), claim });
	return missed.sort(
		(a, b) => (Number.isFinite(a.ms) ? a.ms : Infinity) - (Number.isFinite(b.ms) ? b.ms : Infinity),
	);
}
