'use strict';
// The polling trigger's `event_key` (docs/triggers.md, "Event keys") through n8n's PollContext
// against the sandbox: one key per event, different for different events of one code, and the same
// when n8n runs a poll again from a cursor it did not commit (its polls are at least once).
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();
const keys = (items) => items.map((item) => item.event_key);

/** Polls `setup`, then polls again from the cursor the first poll started from. */
async function pollTwiceFromOneCursor(setup) {
	const again = env.restart(setup);
	const first = await env.poll(setup);
	return [first, await env.poll(again)];
}

const addLead = async (name) =>
	(await env.sandbox.control('POST', '/leads', { card_id: env.sandbox.cardId, name })).data;

test.each([
	['New Lead on one card', () => ({ event: 'newLead', cardId: env.sandbox.cardId })],
	['New Lead on all cards', () => ({ event: 'newLead', cards: 'all' })],
])(
	'%s: a lead is keyed as the webhook trigger keys it; a poll run again gives the same keys',
	async (_, parameters) => {
		const setup = env.trigger(parameters());
		await env.poll(setup); // activation
		env.advanceDays(1 / 24 / 60);
		const leads = [await addLead('first'), await addLead('second')];
		const [first, again] = await pollTwiceFromOneCursor(setup);
		expect(keys(first)).toEqual(leads.map((lead) => `lead.created:${lead.id}`));
		expect(keys(again)).toEqual(keys(first));
		expect(first.map((item) => item.id)).toEqual(leads.map((lead) => lead.id));
	},
);

test('New QR Code: a code is keyed as the webhook trigger keys it; a poll run again gives the same keys', async () => {
	const setup = env.trigger({ event: 'newQrCode' });
	await env.poll(setup);
	env.advanceDays(1 / 24 / 60);
	const code = await env.code('New');
	const [first, again] = await pollTwiceFromOneCursor(setup);
	expect(keys(first)).toEqual([`qr_code.created:${code.id}`]);
	expect(keys(again)).toEqual(keys(first));
});

test('Scan Milestone: milestones 10 and 100 of one code have keys of their own; a poll run again repeats them', async () => {
	const code = await env.code('Busy');
	const setup = env.trigger({ event: 'scanMilestone', milestones: '10, 100' });
	await env.poll(setup);
	await env.scan(code, 10);
	const [ten, tenAgain] = await pollTwiceFromOneCursor(setup);
	await env.scan(code, 90);
	const [hundred, hundredAgain] = await pollTwiceFromOneCursor(setup);
	expect([...keys(ten), ...keys(hundred)]).toEqual([
		`milestone:${code.id}:10`,
		`milestone:${code.id}:100`,
	]);
	expect(ten[0].id).toBe(hundred[0].id);
	expect([...keys(tenAgain), ...keys(hundredAgain)]).toEqual([...keys(ten), ...keys(hundred)]);
});

test('New Scans: two readings of one code have keys of their own; a poll run again repeats them', async () => {
	const code = await env.code('Read');
	const setup = env.trigger({ event: 'newScans' });
	await env.poll(setup);
	await env.scan(code, 2);
	const [first, firstAgain] = await pollTwiceFromOneCursor(setup);
	env.advanceDays(1 / 24);
	await env.scan(code, 1);
	const [second, secondAgain] = await pollTwiceFromOneCursor(setup);
	expect(first).toMatchObject([{ id: code.id, scans_now: 2 }]);
	expect(second).toMatchObject([{ id: code.id, scans_before: 2, scans_now: 3 }]);
	expect(keys(second)[0]).not.toBe(keys(first)[0]);
	expect(keys(firstAgain)).toEqual(keys(first));
	expect(keys(secondAgain)).toEqual(keys(second));
});

test('Quiet Code: two quiet spells of one code have keys of their own; a poll run again repeats them', async () => {
	const code = await env.code('Quiet');
	await env.scan(code, 1);
	const setup = env.trigger({ event: 'quietCode', quietDays: 2 });
	await env.poll(setup);
	env.advanceDays(2.5);
	const [first, firstAgain] = await pollTwiceFromOneCursor(setup);
	await env.scan(code, 1);
	await env.poll(setup);
	env.advanceDays(2.5);
	const [second, secondAgain] = await pollTwiceFromOneCursor(setup);
	expect(first.map((item) => item.id)).toEqual([code.id]);
	expect(second.map((item) => item.id)).toEqual([code.id]);
	expect(keys(second)[0]).not.toBe(keys(first)[0]);
	expect(keys(firstAgain)).toEqual(keys(first));
	expect(keys(secondAgain)).toEqual(keys(second));
});

test('Webhook Endpoint Stopped: two pauses of one endpoint have keys of their own; a poll run again repeats them', async () => {
	const { data: endpoint } = await env.api('POST', '/webhooks', {
		url: 'https://hooks.example.com/receiver',
		events: ['lead.created'],
	});
	const setup = env.trigger({ event: 'endpointStopped', checkAddresses: false });
	expect(await env.poll(setup)).toEqual([]);
	await env.sandbox.control('POST', `/webhooks/${endpoint.id}/pause`);
	const [first, firstAgain] = await pollTwiceFromOneCursor(setup);
	await env.sandbox.control('POST', `/webhooks/${endpoint.id}/resume`);
	expect(await env.poll(setup)).toEqual([]);
	await env.sandbox.control('POST', `/webhooks/${endpoint.id}/pause`);
	const [second, secondAgain] = await pollTwiceFromOneCursor(setup);
	expect([...first, ...second].map((item) => [item.id, item.reason])).toEqual([
		[endpoint.id, 'paused'],
		[endpoint.id, 'paused'],
	]);
	expect(keys(second)[0]).not.toBe(keys(first)[0]);
	expect(keys(firstAgain)).toEqual(keys(first));
	expect(keys(secondAgain)).toEqual(keys(second));
});
