'use strict';
// Quiet Code (polling/quiet.ts) through n8n's PollContext against the sandbox. The days pass for
// n8n and the sandbox together (test/support/scanPolling.js moves Date.now()).
const { useScanPolling, DAY } = require('../support/scanPolling');

const env = useScanPolling();
const quiet = (quietDays, extra = {}) => ({ event: 'quietCode', quietDays, ...extra });
const ids = (items) => items.map((item) => item.id);

test('once when quiet for the days set; again only after a scan and a new quiet spell', async () => {
	const scanned = await env.code('Scanned');
	const never = await env.code('Never scanned');
	await env.scan(scanned, 1);
	const setup = env.trigger(quiet(2));
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(1);
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(1.5);
	const items = await env.poll(setup);
	expect(ids(items)).toEqual([scanned.id, never.id]);
	expect(items[0]).toMatchObject({ name: 'Scanned', quiet_days: 2, quiet_for_days: 2, scans: 1 });
	expect(items[1]).toMatchObject({ last_scanned_at: null, scans: 0, created_at: never.created_at });
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(5);
	expect(await env.poll(env.restart(setup))).toEqual([]); // still the same quiet spell

	await env.scan(scanned, 1);
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(1);
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(1.1);
	expect(ids(await env.poll(setup))).toEqual([scanned.id]);
	expect(await env.poll(setup)).toEqual([]);
});

test('codes already quiet at activation, by a backdated last scan or creation, do not fire until scanned and quiet again', async () => {
	const old = await env.code('Old');
	await env.scan(old, 1, new Date(Date.now() - 10 * DAY).toISOString());
	const unused = await env.code('Unused');
	await env.sandbox.control('PATCH', `/qr-codes/${unused.id}`, {
		created_at: new Date(Date.now() - 10 * DAY).toISOString(),
	});
	const setup = env.trigger(quiet(3));
	expect(await env.poll(setup)).toEqual([]);
	expect(await env.poll(setup)).toEqual([]);
	await env.scan(old, 1);
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(3);
	expect(ids(await env.poll(setup))).toEqual([old.id]);
});

test('a code created after activation and never scanned goes quiet from its creation', async () => {
	const setup = env.trigger(quiet(1));
	await env.poll(setup);
	const fresh = await env.code('Fresh');
	expect(await env.poll(setup)).toEqual([]);
	env.advanceDays(1);
	expect(await env.poll(setup)).toMatchObject([{ id: fresh.id, quiet_days: 1 }]);
});

test('Quiet for (Days) is a whole number of at least 1, checked before any request', async () => {
	for (const bad of [0, -1, 1.5, 'soon', '']) {
		await expect(env.poll(env.trigger(quiet(bad)))).rejects.toThrow(/"Quiet for \(Days\)"/);
	}
	expect((await env.sandbox.control('GET', '/requests')).data).toEqual([]);
});

test('manual "Fetch Test Event" shows the code quiet the longest, cursor untouched', async () => {
	const a = await env.code('A');
	await env.code('B');
	await env.scan(a, 1, new Date(Date.now() - 4 * DAY).toISOString());
	const setup = env.trigger(quiet(30));
	expect(await env.poll(setup, { mode: 'manual' })).toMatchObject([{ id: a.id, quiet_days: 4 }]);
	expect(env.staticOf(setup)).toEqual({});
});
