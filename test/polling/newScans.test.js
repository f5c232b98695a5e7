'use strict';
// New Scans (polling/newScans.ts) through n8n's PollContext against the sandbox: counts that
// rise, counts that go down (a reset), and Include Breakdown.
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();

test('one item per code whose count rose, oldest code first; a count that goes down re-bases and fires nothing', async () => {
	const a = await env.code('A');
	const b = await env.code('B');
	const setup = env.trigger({ event: 'newScans' });
	await env.poll(setup);
	await env.scan(b, 2);
	await env.scan(a, 1);
	const before = Date.now();
	const items = await env.poll(setup);
	// When the poll read the count: how fresh the item is.
	expect(Date.parse(items[0].read_at)).toBeGreaterThanOrEqual(before);
	expect(Date.parse(items[0].read_at)).toBeLessThanOrEqual(Date.now());
	expect(items).toEqual([
		{
			id: a.id,
			name: 'A',
			type: 'url',
			short_url: a.short_url,
			scans_before: 0,
			scans_now: 1,
			new_scans: 1,
			last_scanned_at: expect.stringMatching(/^\d{4}-/),
			read_at: items[0].read_at,
			event_key: `new_scans:${a.id}:1:${items[0].last_scanned_at}`,
		},
		expect.objectContaining({ id: b.id, scans_before: 0, scans_now: 2, new_scans: 2 }),
	]);

	// The count as stored drops (as after a reset of the statistics): nothing, then from there.
	const state = env.staticOf(setup).scanCursor;
	state.codes = state.codes.replace(`${b.id},2`, `${b.id},9`);
	expect(await env.poll(setup)).toEqual([]);
	await env.scan(b, 1);
	expect(await env.poll(setup)).toMatchObject([{ id: b.id, scans_before: 2, scans_now: 3 }]);
});

test('Include Breakdown adds the statistics of whole days, one request per changed code only', async () => {
	const a = await env.code('A');
	const quiet = await env.code('Quiet');
	const setup = env.trigger({ event: 'newScans', includeBreakdown: true });
	await env.poll(setup);
	await env.sandbox.control('POST', '/scans', {
		qr_code_id: a.id,
		country: 'DE',
		device: 'mobile',
	});
	const mark = (await env.sandbox.control('GET', '/requests')).data.length;
	const [item] = await env.poll(setup);
	const today = new Date().toISOString().slice(0, 10);
	expect(item.breakdown).toMatchObject({
		from: today,
		to: today,
		total: 1,
		days: [{ date: today, scans: 1 }],
		breakdowns: { country: [{ value: 'DE', scans: 1 }], device: [{ value: 'mobile', scans: 1 }] },
	});
	const scanReads = (await env.sandbox.control('GET', '/requests')).data
		.slice(mark)
		.filter((request) => request.path.endsWith('/scans'));
	expect(scanReads.map((request) => request.path)).toEqual([`/qr-codes/${a.id}/scans`]);
	expect(scanReads.some((request) => request.path.includes(quiet.id))).toBe(false);
});

test('without Include Breakdown no statistics are read', async () => {
	const a = await env.code('A');
	const setup = env.trigger({ event: 'newScans' });
	await env.poll(setup);
	await env.scan(a, 1);
	const [item] = await env.poll(setup);
	expect(item.breakdown).toBeUndefined();
	const paths = (await env.sandbox.control('GET', '/requests')).data.map((r) => r.path);
	expect(paths.filter((path) => path.endsWith('/scans'))).toEqual([]);
});
