'use strict';
// The Dynamic QR Trigger's catch-up (trigger/catchUp.ts) through n8n's HookContext and
// WebhookContext against the sandbox: deliveries fail through the service's whole retry
// schedule (n8n's clock and the service's moved together), the endpoint ends paused, and the
// trigger registers again; or a delivery comes after a long silence.
const {
	createWorkflow,
	activate,
	deactivate,
	useDeliveries,
	collected,
	webhookUrlOf,
} = require('../engine/triggers');
const { logLines } = require('../engine/n8n-core');
const { createQrCode, endpoints, flushDeliveries, sandboxClient } = require('../support/sandbox');
const { waitFor } = require('../../dev/wait-for');
const { IN_FLIGHT_MS } = require('../../dist/nodes/DynamicQr/trigger/state');
const { useMovedTime, passTime } = require('../support/time');

const started = useDeliveries();
useMovedTime();
let sandbox;
let receiver;
beforeAll(() => ({ sandbox, receiver } = started));

function trigger(events = ['lead.created', 'qr_code.created'], filters = {}, overrides = {}) {
	const setup = createWorkflow({
		parameters: { endpointMode: 'automatic', events, filters },
		credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		webhookBaseUrl: receiver.webhookBaseUrl,
		...overrides,
	});
	receiver.register(setup);
	return setup;
}

const addCard = async (name) => (await sandbox.control('POST', '/cards', { name })).data;
const addLead = async (cardId, name) =>
	(await sandbox.control('POST', '/leads', { card_id: cardId, name })).data;
const stored = (setup) => setup.workflow.staticData[`node:${setup.node.name}`] || {};
/** The wait that protects a new signing secret passes (tested in webhookTrigger.test.js). */
const afterInFlightWindow = () => passTime(sandbox, IN_FLIGHT_MS / 1000);
const itemKeys = (items) =>
	items.map(
		(item) => `${item.type}:${item.type === 'lead.created' ? item.data.lead.id : item.data.id}`,
	);

/** n8n away: every delivery fails through the retry schedule; the endpoint ends paused. */
async function outage(during) {
	receiver.failAll(503);
	const made = await during();
	await passTime(sandbox, 9 * 60 * 60);
	receiver.failAll(null);
	return made;
}

/** Leads on three cards and codes: 20 events, the most the service fails before it pauses. */
async function missedRecords() {
	const cards = [sandbox.cardId, (await addCard('B')).id, (await addCard('C')).id];
	const made = [];
	for (let i = 0; i < 6; i++) {
		const lead = await addLead(cards[i % 3], `away ${i}`);
		made.push(`lead.created:${lead.id}`);
	}
	for (let i = 0; i < 14; i++)
		made.push(`qr_code.created:${(await createQrCode(sandbox, `away ${i}`)).id}`);
	return made;
}

/** `count` leads on the seeded card, keyed as the catch-up keys them. */
async function seededLeads(count, name) {
	const leads = [];
	for (let i = 0; i < count; i++)
		leads.push(`lead.created:${(await addLead(sandbox.cardId, `${name} ${i}`)).id}`);
	return leads;
}

/** A trigger on leads that has started the workflow once: it knows when it last saw a delivery. */
async function receivingLeads() {
	const setup = trigger(['lead.created']);
	await activate(setup);
	const before = await addLead(sandbox.cardId, 'before the outage');
	await flushDeliveries(sandbox);
	await receiver.settle();
	return { setup, before };
}

const caughtUp = () =>
	waitFor(
		() =>
			collected.some((item) => item.caught_up) ? collected.filter((item) => item.caught_up) : null,
		// After a silence it waits 30 s for other processors' tickets (trigger/ledger.ts).
		{ what: 'the catch-up run', timeoutMs: 45000 },
	);

test('paused after an outage, then activated again: every lead on every card and every new code since the last delivery starts the workflow once, in one run; a lead shared as it runs starts it once', async () => {
	const setup = trigger();
	await activate(setup);
	const before = await addLead(sandbox.cardId, 'before the outage');
	await flushDeliveries(sandbox);
	await receiver.settle();
	expect(collected.map((item) => item.data.lead.id)).toEqual([before.id]);

	const made = await outage(missedRecords);
	const pausedId = stored(setup).endpointId;
	expect((await endpoints(sandbox))[0]).toMatchObject({ id: pausedId, status: 'paused' });

	await activate(setup); // finds it paused: replaces it, then catches up a second later
	// Shared in that second: delivered to the new endpoint and read by the catch-up too.
	const racing = await addLead(sandbox.cardId, 'during the catch-up');
	await flushDeliveries(sandbox);
	const items = await caughtUp();
	await receiver.settle();
	const delivered = collected.filter((item) => !item.caught_up);
	expect(delivered.map((item) => item.data.lead.id)).toEqual([before.id, racing.id]);
	expect(itemKeys(items)).toEqual(made);
	// One key per event, whichever path brought it: the racing lead's delivery has the key the
	// catch-up would have given it.
	expect(items.map((item) => item.event_key)).toEqual(made);
	expect(delivered.map((item) => item.event_key)).toEqual([
		`lead.created:${before.id}`,
		`lead.created:${racing.id}`,
	]);
	expect(items[0]).toMatchObject({
		id: `caught_up:${made[0]}`,
		type: 'lead.created',
		data: { card: { id: sandbox.cardId }, lead: { name: 'away 0' } },
		webhook_id: null,
		caught_up: true,
	});
	expect(receiver.executions.filter((run) => run.triggerOutput[0].length > 1)).toHaveLength(1);
	await deactivate(setup);
});

test('Only at Scan Milestones: the milestones codes passed during the outage start the workflow once, at the catch-up; the next scan of that code starts nothing', async () => {
	const [quiet, busy, passedBefore] = [
		await createQrCode(sandbox, 'quiet'),
		await createQrCode(sandbox, 'busy'),
		await createQrCode(sandbox, 'passed before'),
	];
	const scan = (code) => sandbox.control('POST', '/scans', { qr_code_id: code.id });
	for (let i = 0; i < 3; i++) await scan(passedBefore);
	const setup = trigger(['scan.created'], {
		qrCodeIds: [quiet.id, busy.id, passedBefore.id].join(','),
		scanMilestones: '3, 10',
	});
	await activate(setup);
	// 25 scans while n8n is away: busy passes 3 and 10, passedBefore 10 (3 was in the baseline).
	await outage(async () => {
		for (let i = 0; i < 18; i++) await scan(busy);
		for (let i = 0; i < 7; i++) await scan(passedBefore);
	});
	expect((await endpoints(sandbox))[0].status).toBe('paused');
	await activate(setup);
	const items = await caughtUp();
	expect(
		items.map((item) => [
			item.data.qr_code.id,
			item.milestone,
			item.milestones_reached,
			item.scans,
		]),
	).toEqual([
		[busy.id, 10, [3, 10], 18],
		[passedBefore.id, 10, [10], 10],
	]);
	expect(items.map((item) => item.event_key)).toEqual([
		`milestone:${busy.id}:10`,
		`milestone:${passedBefore.id}:10`,
	]);
	expect(items[0]).toMatchObject({
		id: `caught_up:milestone:${busy.id}:10`,
		type: 'scan.created',
		data: { qr_code: { id: busy.id, name: 'busy' }, short_url: busy.short_url },
		webhook_id: null,
		caught_up: true,
	});
	await receiver.settle();
	collected.length = 0;
	await scan(busy); // 19: no new milestone
	await scan(quiet); // 1
	await scan(quiet);
	await scan(quiet); // 3: quiet's first
	await flushDeliveries(sandbox);
	await receiver.settle();
	expect(collected.map((item) => [item.data.qr_code.id, item.milestone])).toEqual([[quiet.id, 3]]);
	// Delivered, the milestone has the key the catch-up and the polling trigger give it.
	expect(collected[0].event_key).toBe(`milestone:${quiet.id}:3`);
	await deactivate(setup);
});

test("n8n's clock ahead of the service's: the leads of the minutes before the last delivery n8n saw are read too, and those delivered start nothing", async () => {
	// The service's clock two minutes behind n8n's: the missed leads carry earlier times than the
	// last delivery n8n saw.
	sandbox.clock.advance(-2 * 60_000);
	try {
		const { setup, before } = await receivingLeads();
		const made = await outage(() => seededLeads(20, 'skew'));
		await activate(setup);
		expect(itemKeys(await caughtUp())).toEqual(made);
		await receiver.settle();
		expect(collected.filter((item) => item.data.lead.id === before.id)).toHaveLength(1);
		await deactivate(setup);
	} finally {
		sandbox.clock.advance(2 * 60_000);
	}
});

test('the repair by deactivating and activating catches up too; a deliberate deactivation does not', async () => {
	const setup = trigger(['lead.created']);
	await activate(setup);
	const made = await outage(() => seededLeads(20, 'l'));
	await deactivate(setup); // removes the paused endpoint
	await afterInFlightWindow();
	await activate(setup);
	expect(itemKeys(await caughtUp())).toEqual(made);

	// Deactivated while receiving: what is shared meanwhile is not for this workflow.
	await deactivate(setup);
	collected.length = 0;
	await addLead(sandbox.cardId, 'while inactive');
	await afterInFlightWindow();
	await activate(setup);
	const lead = await addLead(sandbox.cardId, 'active again');
	await flushDeliveries(sandbox);
	await receiver.settle();
	await new Promise((resolve) => setTimeout(resolve, 2000)); // a catch-up would have been sent by now
	await receiver.settle();
	expect(collected.map((item) => item.data.lead.id)).toEqual([lead.id]);
	await deactivate(setup);
});

test('the card filter applies to what is caught up', async () => {
	const other = await addCard('Other');
	const setup = trigger(['lead.created'], { cardIds: sandbox.cardId });
	await activate(setup);
	const made = await outage(async () => {
		const leads = [];
		for (let i = 0; i < 20; i++) {
			const lead = await addLead(i % 2 ? other.id : sandbox.cardId, `l${i}`);
			if (!(i % 2)) leads.push(`lead.created:${lead.id}`);
		}
		return leads;
	});
	await activate(setup);
	expect(itemKeys(await caughtUp())).toEqual(made);
	await deactivate(setup);
});

test('an outage shorter than the retry schedule: the service retries each lead once, nothing is caught up or started twice', async () => {
	const setup = trigger(['lead.created']);
	await activate(setup);
	receiver.failAll(503);
	const leads = [];
	for (let i = 0; i < 5; i++) leads.push((await addLead(sandbox.cardId, `short ${i}`)).id);
	await passTime(sandbox, 60); // the first retry fails too
	receiver.failAll(null);
	await passTime(sandbox, 5 * 60); // the second arrives
	await receiver.settle();
	await passTime(sandbox, 9 * 60 * 60); // nothing is left to retry
	await receiver.settle();
	expect(collected.map((item) => item.data.lead.id)).toEqual(leads);
	expect((await endpoints(sandbox))[0].status).toBe('active');
	expect(stored(setup).missedSince).toBeUndefined();
	await deactivate(setup);
});

test('a delivery after a silence longer than the retry schedule (too few events failed to pause the endpoint): the leads the service dropped are caught up once', async () => {
	const { setup, before } = await receivingLeads();
	const dropped = await outage(() => seededLeads(3, 'd'));
	expect((await endpoints(sandbox))[0].status).toBe('active');
	const next = await addLead(sandbox.cardId, 'after the outage');
	await flushDeliveries(sandbox);
	expect(itemKeys(await caughtUp())).toEqual(dropped);
	await receiver.settle();
	expect(collected.filter((item) => !item.caught_up).map((item) => item.data.lead.id)).toEqual([
		before.id,
		next.id,
	]);
	// The silence was taken: the next delivery catches up nothing.
	collected.length = 0;
	await addLead(sandbox.cardId, 'later');
	await flushDeliveries(sandbox);
	await receiver.settle();
	await new Promise((resolve) => setTimeout(resolve, 1500));
	await receiver.settle();
	expect(collected.map((item) => item.data.lead.name)).toEqual(['later']);
	await deactivate(setup);
});

describe('quiet days', () => {
	const HOUR = 60 * 60;
	let scanned;
	/** One event of `type` at the service, named as its item is keyed (itemKey). */
	async function makeEvent(type, name) {
		if (type === 'lead.created') return `lead.created:${(await addLead(sandbox.cardId, name)).id}`;
		if (type === 'qr_code.created')
			return `qr_code.created:${(await createQrCode(sandbox, name)).id}`;
		scanned ??= await createQrCode(sandbox, 'scanned');
		const scan = (await sandbox.control('POST', '/scans', { qr_code_id: scanned.id })).data;
		return `scan:${scanned.id}:${scan.scanned_at}`;
	}
	const itemKey = (item) =>
		item.type === 'scan.created'
			? `scan:${item.data.qr_code.id}:${item.data.scanned_at}`
			: itemKeys([item])[0];
	beforeEach(() => {
		scanned = undefined;
	});

	test.each([
		['lead.created', 1],
		['lead.created', 25],
		['lead.created', 72],
		['qr_code.created', 1],
		['qr_code.created', 25],
		['qr_code.created', 72],
		['scan.created', 1],
		['scan.created', 25],
		['scan.created', 72],
	])(
		'%s only, silent for %i hours: the next event starts the workflow once, nothing from before again, what the service dropped is caught up where the API lists it',
		async (type, hours) => {
			const setup = trigger([type]);
			// Made just before activation: never for this workflow, also not at a catch-up.
			await makeEvent(type, 'before activation');
			await activate(setup);
			const before = await makeEvent(type, 'before');
			await flushDeliveries(sandbox);
			await receiver.settle();
			// In a longer silence n8n is away through the service's whole retry schedule at first:
			// the one event made then is dropped (too few to pause the endpoint).
			const dropped = [];
			if (hours > 9) {
				receiver.failAll(503);
				dropped.push(await makeEvent(type, 'dropped'));
				await passTime(sandbox, 9 * HOUR);
				receiver.failAll(null);
			}
			await passTime(sandbox, (hours - (dropped.length ? 9 : 0)) * HOUR);
			const next = await makeEvent(type, 'next');
			await flushDeliveries(sandbox);
			await receiver.settle();
			// Leads and codes are listed by the API: a silence longer than the retries is caught up.
			const listed = type !== 'scan.created';
			const caught = listed && dropped.length ? (await caughtUp()).map(itemKey) : [];
			await receiver.settle();
			expect(caught).toEqual(dropped.filter(() => listed));
			expect(collected.map(itemKey).sort()).toEqual([before, next, ...caught].sort());
			// Nothing is due any more: no other catch-up is sent.
			expect(stored(setup).missedSince).toBeUndefined();
			await deactivate(setup);
		},
	);

	test('an endpoint created in the dashboard: after a long silence the next lead starts once, and no catch-up is sent (it needs the API credential)', async () => {
		const setup = trigger(['lead.created'], {}, { credentials: null });
		const created = await sandboxClient(sandbox).request('POST', '/webhooks', {
			url: webhookUrlOf(setup),
			events: ['lead.created'],
		});
		Object.assign(setup.node.parameters, {
			endpointMode: 'dashboard',
			signingSecret: created.body.data.secret,
		});
		await activate(setup);
		const first = await addLead(sandbox.cardId, 'before');
		await flushDeliveries(sandbox);
		await passTime(sandbox, 9 * 60 * 60);
		const next = await addLead(sandbox.cardId, 'after nine quiet hours');
		await flushDeliveries(sandbox);
		await receiver.settle();
		await new Promise((resolve) => setTimeout(resolve, 2000)); // a catch-up would have been sent by now
		await receiver.settle();
		expect(collected.map((item) => item.data.lead.id)).toEqual([first.id, next.id]);
		expect(stored(setup).missedSince).toBeUndefined();
		// Only the two leads reached this workflow's webhook (earlier tests' resyncs may reach theirs).
		const path = new URL(webhookUrlOf(setup)).pathname;
		const ours = receiver.answers.filter((answer) => answer.path === path);
		expect(ours.map((answer) => answer.status)).toEqual([200, 200]);
		expect(logLines.filter((line) => /catch-up/.test(line.message))).toEqual([]);
		await deactivate(setup);
	});
});
