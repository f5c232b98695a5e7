'use strict';
// Scan Milestone (polling/milestones.ts) through n8n's PollContext against the sandbox.
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();
const milestone = (milestones, extra = {}) => ({ event: 'scanMilestone', milestones, ...extra });

test('once per code and milestone, none for milestones passed before activation, also after a restart', async () => {
	const a = await env.code('A');
	const b = await env.code('B');
	await env.scan(a, 6); // a has passed 5 before activation
	const setup = env.trigger(milestone('3, 5, 10'));
	expect(await env.poll(setup)).toEqual([]);

	await env.scan(b, 3);
	await env.scan(a, 1);
	expect(await env.poll(setup)).toMatchObject([
		{ id: b.id, name: 'B', milestone: 3, milestones_reached: [3], scans: 3 },
	]);
	expect(await env.poll(setup)).toEqual([]);

	const restarted = env.restart(setup);
	expect(await env.poll(restarted)).toEqual([]);
	await env.scan(b, 1);
	expect(await env.poll(restarted)).toEqual([]); // 4: no milestone
	await env.scan(a, 3); // 10
	await env.scan(b, 1); // 5
	const items = await env.poll(restarted);
	expect(items.map((item) => [item.id, item.milestone])).toEqual([
		[a.id, 10],
		[b.id, 5],
	]);
	expect(await env.poll(restarted)).toEqual([]);
});

test('a jump over several milestones gives one item: the highest, with all reached', async () => {
	const a = await env.code('A');
	const setup = env.trigger(milestone(['10', 2, '5']));
	await env.poll(setup);
	await env.scan(a, 11);
	expect(await env.poll(setup)).toMatchObject([
		{ id: a.id, milestone: 10, milestones_reached: [2, 5, 10], scans: 11 },
	]);
});

test('a code created between polls reaches milestones from 0; a re-created code is a new code', async () => {
	const setup = env.trigger(milestone('2'));
	await env.poll(setup);
	const fresh = await env.code('Flyer');
	await env.scan(fresh, 2);
	expect(await env.poll(setup)).toMatchObject([{ id: fresh.id, milestone: 2 }]);
	await env.api('DELETE', `/qr-codes/${fresh.id}`);
	expect(await env.poll(setup)).toEqual([]);
	const again = await env.code('Flyer');
	expect(await env.poll(setup)).toEqual([]);
	await env.scan(again, 2);
	expect(await env.poll(setup)).toMatchObject([{ id: again.id, milestone: 2 }]);
});

test('Milestones are checked before any request, naming the field', async () => {
	for (const bad of ['', '100, abc', '0', '1.5', '-3', [100, 'x'], { a: 1 }, true]) {
		const setup = env.trigger(milestone(bad));
		const before = (await env.sandbox.control('GET', '/requests')).data.length;
		await expect(env.poll(setup)).rejects.toThrow(/"Milestones"/);
		expect((await env.sandbox.control('GET', '/requests')).data.length).toBe(before);
	}
});

test('manual "Fetch Test Event" shows the code with the most scans, cursor untouched', async () => {
	const a = await env.code('A');
	const b = await env.code('B');
	await env.scan(a, 1);
	await env.scan(b, 4);
	const setup = env.trigger(milestone('3, 100'));
	expect(await env.poll(setup, { mode: 'manual' })).toMatchObject([
		{ id: b.id, milestone: 3, milestones_reached: [3], scans: 4 },
	]);
	expect(env.staticOf(setup)).toEqual({});
});
