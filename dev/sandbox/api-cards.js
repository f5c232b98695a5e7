'use strict';

// Cards and their leads (read-only through the API; leads arrive through the control API).

const { paginate } = require('./pagination');
const { invalid, notFound } = require('./http-util');
const { checkIsoDateTime } = require('./validators');
const { newId, newSlug } = require('./ids');
const { ID_PARAM, PAGINATION_QUERY } = require('./api-docs');

const LEAD_FIELDS = ['name', 'email', 'phone', 'company', 'message'];

function cardRecord(card, urls) {
	return {
		id: card.id,
		object: 'card',
		name: card.name,
		page_url: urls.cardPageUrl(card.id),
		short_url: urls.shortUrl(urls.standardDomain, card.slug),
		created_at: card.created_at,
	};
}

function leadRecord(lead) {
	const { workspaceId, ...record } = lead;
	return record;
}

function findCard(state, workspace, id) {
	const card = state.cards.find(
		(c) => c.id === id && (!workspace || c.workspaceId === workspace.id),
	);
	if (!card) throw notFound('card');
	return card;
}

/** A card as the dashboard adds one (the API cannot): in the seeded card's workspace. */
function addCard({ state, clock }, fields) {
	if (fields.name !== undefined && typeof fields.name !== 'string')
		throw invalid({ name: 'name must be a text.' });
	const card = {
		id: newId(),
		workspaceId: state.card.workspaceId,
		slug: newSlug(),
		name: fields.name ?? `Card ${state.cards.length + 1}`,
		created_at: clock.iso(),
	};
	state.cards.push(card);
	return card;
}

/** Stores a lead shared on a card and emits lead.created with { card, lead }. */
function addLead({ state, clock, urls, dispatcher }, cardId, fields) {
	const card = findCard(state, null, cardId);
	const lead = { id: newId(), object: 'lead', card_id: card.id };
	for (const field of LEAD_FIELDS) lead[field] = fields[field] ?? null;
	lead.created_at = clock.iso();
	state.leads.push({ ...lead, workspaceId: card.workspaceId });
	dispatcher.emit(state.workspaceById(card.workspaceId), 'lead.created', {
		card: cardRecord(card, urls),
		lead,
	});
	return lead;
}

function cardRoutes({ state, urls }) {
	return [
		{
			method: 'GET',
			path: '/cards',
			query: PAGINATION_QUERY,
			summary: "List the workspace's digital business cards",
			success: { status: 200, description: 'A page of cards' },
			handle({ workspace, query, listUrl }) {
				const cards = state.cards.filter((card) => card.workspaceId === workspace.id).reverse();
				const page = paginate(cards, query, listUrl);
				return {
					status: 200,
					json: { ...page, data: page.data.map((card) => cardRecord(card, urls)) },
				};
			},
		},
		{
			method: 'GET',
			path: '/cards/{id}',
			params: [ID_PARAM],
			summary: 'Get one card with its page and short link',
			success: { status: 200, description: 'The card' },
			handle: ({ workspace, params }) => ({
				status: 200,
				json: { data: cardRecord(findCard(state, workspace, params.id), urls) },
			}),
		},
		{
			method: 'GET',
			path: '/cards/{id}/leads',
			params: [ID_PARAM],
			query: [
				{
					name: 'since',
					type: 'string',
					description: 'ISO 8601 timestamp; only leads created after it',
				},
				...PAGINATION_QUERY,
			],
			summary: 'Leads shared on the card, newest first',
			success: { status: 200, description: 'A page of leads' },
			handle({ workspace, params, query, listUrl }) {
				const card = findCard(state, workspace, params.id);
				if (query.since !== undefined && checkIsoDateTime(query.since)) {
					throw invalid({ since: `since ${checkIsoDateTime(query.since)}` });
				}
				const since = query.since === undefined ? -Infinity : Date.parse(query.since);
				const leads = state.leads
					.filter((lead) => lead.card_id === card.id && Date.parse(lead.created_at) > since)
					.reverse();
				const page = paginate(leads, query, listUrl);
				return { status: 200, json: { ...page, data: page.data.map(leadRecord) } };
			},
		},
	];
}

/**
 * For readings (readings/since-*.js): a `before` hook that reads the `since` of GET
 * /cards/{id}/leads another way. `read(since)` returns what the sandbox's own reading should
 * see instead (an ISO time, or undefined for no filter), or `{ refuse: message }` for a 422 on
 * `since`.
 */
function readSince(read) {
	return (call) => {
		if (call.route !== '/cards/{id}/leads' || call.query.since === undefined) return undefined;
		const since = read(call.query.since);
		if (since && typeof since === 'object') {
			const message = `since ${since.refuse} (got "${call.query.since}")`;
			return { status: 422, json: { message, errors: { since: [message] } } };
		}
		if (since === undefined) delete call.query.since;
		else call.query.since = since;
		return undefined;
	};
}

module.exports = { cardRoutes, addCard, addLead, cardRecord, findCard, readSince };
