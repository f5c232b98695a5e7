'use strict';
// Webhook Endpoint Stopped (polling/endpointHealth.ts) through n8n's PollContext against the
// sandbox: endpoints paused by the service, removed while their receiver still answers, or at an
// address that does not answer are each reported once per spell; a trigger that was deactivated
// (its address answers 404) is not. A local server stands for n8n: 401 to an unsigned request
// while "active", 404 once "deactivated".
const crypto = require('node:crypto');
const http = require('node:http');

const { freePort } = require('../../dev/ports');
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();
const receiver = { server: undefined, url: '', active: new Set(), probes: [] };

beforeAll(async () => {
	receiver.server = http.createServer((req, res) => {
		receiver.probes.push(req.url);
		res.writeHead(receiver.active.has(req.url) ? 401 : 404).end();
	});
	await new Promise((resolve) => receiver.server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${receiver.server.address().port}`;
});
afterAll(() => new Promise((resolve) => receiver.server.close(resolve)));
beforeEach(() => {
	receiver.active.clear();
	receiver.probes.length = 0;
	for (const name of Object.keys(paths)) delete paths[name];
});

/** A trigger's path, as n8n builds it: /webhook/<webhookId>/webhook. */
const triggerPath = () => `/webhook/${crypto.randomUUID()}/webhook`;

/** An endpoint at the receiver (answering while `active`) or at `url`. */
async function endpoint(path, { active = true, url = `${receiver.url}${path}` } = {}) {
	if (active) receiver.active.add(path);
	return (await env.api('POST', '/webhooks', { url, events: ['lead.created'] })).data;
}
/** A path of the receiver standing for a trigger's address, answering while `active`. */
const paths = {};
const at = (name) => (paths[name] ??= triggerPath());
const pause = (id) => env.sandbox.control('POST', `/webhooks/${id}/pause`);
const reasons = (items) => items.map((item) => [item.id, item.reason]);

test('paused, removed with its trigger still active, or at an address without answer: each reported once; a deactivated trigger is not', async () => {
	const paused = await endpoint(at('paused'));
	const removed = await endpoint(at('removed'));
	const deactivated = await endpoint(at('deactivated'));
	const dead = await endpoint('', {
		active: false,
		url: `http://127.0.0.1:${await freePort()}${triggerPath()}`,
	});
	const setup = env.trigger({ event: 'endpointStopped' });

	// The first poll reports what has already stopped.
	const first = await env.poll(setup);
	expect(reasons(first)).toEqual([[dead.id, 'unreachable']]);
	expect(first[0]).toMatchObject({ url: dead.url, status: 'active', detail: 'ECONNREFUSED' });
	expect(await env.poll(setup)).toEqual([]);

	await pause(paused.id);
	await env.api('DELETE', `/webhooks/${removed.id}`);
	receiver.active.delete(at('deactivated'));
	await env.api('DELETE', `/webhooks/${deactivated.id}`);
	const second = await env.poll(setup);
	expect(reasons(second)).toEqual([
		[paused.id, 'paused'],
		[removed.id, 'removed'],
	]);
	expect(second[0]).toMatchObject({ status: 'paused', events: ['lead.created'] });
	expect(await env.poll(setup)).toEqual([]);

	// Repaired as a re-activation does: the paused endpoint replaced at the same address.
	await env.api('DELETE', `/webhooks/${paused.id}`);
	const replacement = await endpoint(at('paused'));
	expect(await env.poll(setup)).toEqual([]);
	await pause(replacement.id);
	expect(reasons(await env.poll(env.restart(setup)))).toEqual([[replacement.id, 'paused']]);
});

test('Check Addresses off: nothing is sent to the addresses; pauses are still reported', async () => {
	await endpoint('', {
		active: false,
		url: `http://127.0.0.1:${await freePort()}${triggerPath()}`,
	});
	const watched = await endpoint(at('watched'));
	const setup = env.trigger({ event: 'endpointStopped', checkAddresses: false });
	expect(await env.poll(setup)).toEqual([]);
	await pause(watched.id);
	expect(reasons(await env.poll(setup))).toEqual([[watched.id, 'paused']]);
	expect(receiver.probes).toEqual([]);
});

test("an endpoint that is not a trigger's address is sent nothing and never reported unreachable", async () => {
	await endpoint('/crm/hook', { active: false });
	const setup = env.trigger({ event: 'endpointStopped' });
	expect(await env.poll(setup)).toEqual([]);
	expect(await env.poll(setup)).toEqual([]);
	expect(receiver.probes).toEqual([]);
});

test.each([
	['endpoint-status-values', 'disabled'],
	['endpoint-paused-flag', null],
])('reading %s: a paused endpoint is reported as paused', async (reading, status) => {
	await env.sandbox.control('PUT', '/readings', { names: [reading] });
	const watched = await endpoint(at('watched'));
	const setup = env.trigger({ event: 'endpointStopped' });
	expect(await env.poll(setup)).toEqual([]);
	await pause(watched.id);
	const [item] = await env.poll(setup);
	expect(item).toMatchObject({ id: watched.id, reason: 'paused', status });
});

test('"Fetch Test Event" shows what has stopped now and leaves the static data alone', async () => {
	const setup = env.trigger({ event: 'endpointStopped' });
	await expect(env.poll(setup, { mode: 'manual' })).rejects.toThrow(
		'No webhook endpoint has stopped',
	);
	const watched = await endpoint(at('watched'));
	await pause(watched.id);
	expect(reasons(await env.poll(setup, { mode: 'manual' }))).toEqual([[watched.id, 'paused']]);
	expect(env.staticOf(setup)).toEqual({});
});
