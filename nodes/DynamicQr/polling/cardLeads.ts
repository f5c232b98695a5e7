import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { isGone, OutOfBudgetError, recordId, timeMs, type ApiClient } from '../api';
import { advance, cutoffMs } from './cursor';
import { pollingParameters, shareSettings } from './pollingProperties';
import { createdEvents, emit, loadLeadCursor, saveLeadCursor, type CardCursor } from './pollState';

const CARDS_PER_PAGE = 100;
export const leadsPath = (cardId: string) => `/cards/${encodeURIComponent(cardId)}/leads`;

/** Oldest first across cards, ties in order; with no readable time last (`advance`: newest). */
function oldestFirst(leads: IDataObject[]): IDataObject[] {
	const at = (lead: IDataObject) => {
		const ms = timeMs(lead.created_at);
		return Number.isFinite(ms) ? ms : Infinity;
	};
	return leads.sort((a, b) => at(a) - at(b) || 0);
}

/** The card a lead was shared on, also where the service's list leaves it out. */
const withCard = (lead: IDataObject, cardId: string) =>
	lead.card_id === undefined ? { ...lead, card_id: cardId } : lead;

/** New Lead on several cards: the least recently read first, as many as the share allows. */
export async function pollCardLeads(ctx: IPollFunctions, client: ApiClient) {
	const parameters = pollingParameters(ctx);
	const chosen =
		parameters.option('cards') === 'chosen' ? parameters.stringList('cardIds') : undefined;
	const key = chosen ? `newLead|chosen|${[...chosen].sort().join(',')}` : 'newLead|all';
	const nowMs = Date.now();
	const isManual = ctx.getMode() === 'manual';
	const saved = isManual ? undefined : loadLeadCursor(ctx, key);
	const settings = shareSettings(parameters, saved, nowMs);
	if (!saved && !isManual) {
		// Activation: leads from before it are never emitted, so none needs reading now.
		saveLeadCursor(ctx, { key, polledMs: nowMs, sinceMs: nowMs, cards: [] });
		return null;
	}
	const cardIds = chosen ?? (await client.all('/cards')).flatMap((card) => recordId(card) ?? []);
	const listRequests = chosen ? 0 : Math.max(1, Math.ceil(cardIds.length / CARDS_PER_PAGE));
	const known = new Map(saved?.cards.map((card) => [card.key, card]));
	const cards: CardCursor[] = cardIds
		.map((id) => known.get(id) ?? { key: id, recent: [], fromMs: saved?.sinceMs })
		.sort((a, b) => (a.readMs ?? -Infinity) - (b.readMs ?? -Infinity));
	const perPoll = client.rate.requestsPerPoll(settings, client.msLeft());
	const turn = cards.slice(0, Math.max(1, perPoll - listRequests));

	if (isManual) {
		// "Fetch Test Event": the newest lead of the cards one poll would read.
		const newest = await Promise.all(
			turn.map(async (card) =>
				(await client.all(leadsPath(card.key), {}, 1)).map((lead) => withCard(lead, card.key)),
			),
		);
		const lead = oldestFirst(newest.flat()).pop();
		return emit(ctx, createdEvents('lead.created', lead ? [lead] : []), [
			'No watched card has leads yet',
			'Share a contact on a card page, then fetch a test event again.',
		]);
	}

	const answers = await Promise.allSettled(
		turn.map((card) => client.since(leadsPath(card.key), cutoffMs(card))),
	);
	const gone = new Set<string>();
	const leads: IDataObject[] = [];
	answers.forEach((answer, index) => {
		const card = turn[index];
		if (answer.status === 'fulfilled') {
			leads.push(...advance(card, answer.value, nowMs).map((lead) => withCard(lead, card.key)));
			card.readMs = nowMs;
			return;
		}
		// The budget ran out: this card goes first next time. Deleted since the list: forgotten.
		if (answer.reason instanceof OutOfBudgetError) return;
		if (!isGone(answer.reason)) throw answer.reason;
		if (!chosen) return gone.add(card.key);
		// A chosen card the service does not know is the user's to fix.
		throw new NodeOperationError(ctx.getNode(), `The card "${card.key}" was not found`, {
			description:
				'It was deleted, or the ID is not one of this account\'s cards: choose the cards again in "Card Names or IDs".',
		});
	});

	const learnt = client.rate.learntLimit(settings);
	saveLeadCursor(ctx, {
		key,
		polledMs: nowMs,
		sinceMs: saved?.sinceMs ?? nowMs,
		cards: cards.filter((card) => !gone.has(card.key)),
		...(learnt ? { learntLimit: learnt } : {}),
	});
	return emit(ctx, createdEvents('lead.created', oldestFirst(leads)));
}
