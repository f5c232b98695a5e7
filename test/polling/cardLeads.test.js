'use strict';
// New Lead on all or chosen cards (polling/cardLeads.ts) through n8n's PollContext against the
// sandbox: every card of the account, also cards added after activation, each lead once, across
// restarts; a poll reads no more cards than its share of the plan allows and the next goes on.
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();

const addCard = async (name) => (await env.sandbox.control('POST', '/cards', { name })).data;
/** A lead, then a millisecond of both clocks: leads made one after the other have distinct times. */
async function addLead(cardId, name) {
	const lead = (await env.sandbox.control('POST', '/leads', { card_id: cardId, name })).data;
	env.shiftMs += 1;
	return lead;
}
const requestCount = async () => (await env.sandbox.control('GET', '/requests')).data.length;
const ids = (items) => items.map((item) => item.id);

/**
 * The poll at activation, then a millisecond of both clocks: a lead made in activation's very
 * millisecond counts as before it (the API's `since` is exclusive).
 */
async function activate(setup) {
	expect(await env.poll(setup)).toEqual([]);
	env.shiftMs += 1;
}

/** A minute of both clocks between polls, as a poll interval of a minute would have it. */
async function pollAfterAMinute(setup, options) {
	env.shiftMs += 60_000;
	return await env.poll(setup, options);
}

test('all cards: leads from before activation never start it; every later lead once, oldest first, also on a card added after activation and after a restart', async () => {
	const second = await addCard('Second');
	await addLead(env.sandbox.cardId, 'old on the seeded card');
	await addLead(second.id, 'old on the second card');
	const setup = env.trigger({ event: 'newLead', cards: 'all' });
	await activate(setup);
	expect(env.staticOf(setup).cursor).toBeUndefined(); // one card's cursor is another key

	const third = await addCard('Added after activation');
	const fresh = [
		await addLead(second.id, 'a'),
		await addLead(env.sandbox.cardId, 'b'),
		await addLead(third.id, 'c'),
		await addLead(second.id, 'd'),
	];
	const first = await pollAfterAMinute(setup);
	expect(ids(first)).toEqual(ids(fresh));
	expect(first.map((lead) => lead.card_id)).toEqual([
		second.id,
		env.sandbox.cardId,
		third.id,
		second.id,
	]);
	expect(await pollAfterAMinute(setup)).toEqual([]);

	const restarted = env.restart(setup);
	expect(await pollAfterAMinute(restarted)).toEqual([]);
	const later = await addLead(third.id, 'after the restart');
	expect(ids(await pollAfterAMinute(restarted))).toEqual([later.id]);
	expect(
		env
			.staticOf(restarted)
			.leadCursor.cards.map((card) => card.key)
			.sort(),
	).toEqual([env.sandbox.cardId, second.id, third.id].sort());
});

test('30 cards on a plan of 10 requests a minute: each poll keeps to half of it, reading the cards least recently read, and every lead arrives once', async () => {
	const cards = [{ id: env.sandbox.cardId }];
	for (let i = 1; i < 30; i++) cards.push(await addCard(`Card ${i}`));
	const setup = env.trigger({ event: 'newLead', cards: 'all', planRequestsPerMinute: 10 });
	await activate(setup);
	const made = [];
	for (const card of cards) made.push((await addLead(card.id, `lead of ${card.id}`)).id);

	const emitted = [];
	const perPoll = [];
	for (let poll = 0; poll < 8; poll++) {
		const before = await requestCount();
		emitted.push(...ids(await pollAfterAMinute(setup)));
		perPoll.push((await requestCount()) - before);
		if (poll === 3) made.push((await addLead(cards[0].id, 'again on the first card')).id);
	}
	// 50 % of 10 a minute: the list of cards and 4 cards' leads.
	expect(perPoll).toEqual(Array(8).fill(5));
	expect([...emitted].sort()).toEqual([...made].sort());
	expect(emitted).toHaveLength(made.length);
});

test('a poll whose budget the rate limit cuts emits what it read; the cards it could not read come first in the next poll, their leads once', async () => {
	const cards = [{ id: env.sandbox.cardId }, await addCard('B'), await addCard('C')];
	const setup = env.trigger({
		event: 'newLead',
		cards: 'chosen',
		cardIds: cards.map((card) => card.id),
	});
	await activate(setup);
	const leads = [];
	for (const card of cards) leads.push(await addLead(card.id, `lead of ${card.id}`));

	// Every read answers 429 with a wait longer than the poll's budget.
	await env.sandbox.control('POST', '/faults', { status429Count: 3, retryAfterSeconds: 120 });
	expect(await pollAfterAMinute(setup, { budgetMs: 36_000 })).toEqual([]);
	await env.sandbox.control('POST', '/faults', { status429Count: 0 });
	expect(ids(await pollAfterAMinute(setup, { budgetMs: 36_000 }))).toEqual(ids(leads));
	expect(await pollAfterAMinute(setup, { budgetMs: 36_000 })).toEqual([]);
});

test('chosen cards: only their leads; a chosen card the service does not know fails the poll by name and changes nothing', async () => {
	const watched = await addCard('Watched');
	const other = await addCard('Other');
	const setup = env.trigger({ event: 'newLead', cards: 'chosen', cardIds: [watched.id] });
	await activate(setup);
	await addLead(other.id, 'not watched');
	const lead = await addLead(watched.id, 'watched');
	expect(ids(await pollAfterAMinute(setup))).toEqual([lead.id]);

	setup.node.parameters.cardIds = [watched.id, 'nosuchcard00'];
	await activate(setup); // other cards: a new watch, from now
	const saved = JSON.stringify(env.staticOf(setup));
	await expect(pollAfterAMinute(setup)).rejects.toThrow('The card "nosuchcard00" was not found');
	expect(JSON.stringify(env.staticOf(setup))).toBe(saved);
});

test('"Fetch Test Event" shows the newest lead of any card and leaves the static data alone', async () => {
	const setup = env.trigger({ event: 'newLead', cards: 'all' });
	await expect(env.poll(setup, { mode: 'manual' })).rejects.toThrow(
		'No watched card has leads yet',
	);
	const card = await addCard('Second');
	await addLead(env.sandbox.cardId, 'older');
	env.shiftMs += 1000;
	const newest = await addLead(card.id, 'newest');
	expect(ids(await env.poll(setup, { mode: 'manual' }))).toEqual([newest.id]);
	expect(env.staticOf(setup)).toEqual({});
});
