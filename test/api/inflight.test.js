'use strict';
/**
 * How many requests one node run keeps in flight (api/inflight.ts), as the sandbox counts them
 * rather than timings (fast by default, issue 17): without Request Options up to 10 creates are
 * in flight at once, with output order and pairing kept; an explicit
 * Concurrent Requests caps what is in flight.
 */
const { useSandbox, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await ctx.setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

const createMany = (...args) => ctx.createMany(...args);

const names = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
const posts = async () =>
	(await ctx.requests()).filter((r) => r.method === 'POST' && r.path === '/qr-codes');
const maxInFlight = (requests) => Math.max(...requests.map((r) => r.in_flight));

describe('requests in flight', () => {
	test('default settings: several creates in flight at once; order, pairing and one code per item', async () => {
		await ctx.control('POST', '/faults', { latencyMs: 30 });
		const { items, error } = await createMany(60, 'Adaptive');
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((code) => code.name)).toEqual(names('Adaptive', 60));
		items.forEach((item, index) => expect(item.pairedItem).toEqual({ item: index }));
		const sent = await posts();
		expect(sent).toHaveLength(60);
		expect(maxInFlight(sent)).toBeGreaterThan(1);
		expect(maxInFlight(sent)).toBeLessThanOrEqual(10);
	});

	test('Concurrent Requests as the editor shows it when added (10) runs as the node does without it', async () => {
		const {
			requestOptionsProperty,
		} = require('../../dist/nodes/DynamicQr/actions/operationParameters');
		const option = requestOptionsProperty.options.find((o) => o.name === 'concurrency');
		expect(option.default).toBe(10);
		const runs = {};
		for (const [label, options] of [
			['without', {}],
			['shown default', { concurrency: option.default }],
		]) {
			await ctx.control('POST', '/reset');
			await ctx.control('POST', '/faults', { latencyMs: 30 });
			const { error } = await createMany(40, label, options);
			expect(error).toBeUndefined();
			const sent = await posts();
			// The first request goes alone, then up to 10 at once.
			runs[label] = { first: sent[0].in_flight, max: maxInFlight(sent) };
		}
		expect(runs['shown default']).toEqual(runs.without);
		expect(runs.without.first).toBe(1);
		expect(runs.without.max).toBeGreaterThan(1);
		expect(runs.without.max).toBeLessThanOrEqual(10);
	});

	test('an explicit Concurrent Requests caps what is in flight; 1 sends one request at a time', async () => {
		await ctx.control('POST', '/faults', { latencyMs: 20 });
		const one = await createMany(12, 'One', { concurrency: 1 });
		expect(one.error).toBeUndefined();
		expect(maxInFlight(await posts())).toBe(1);

		await ctx.control('POST', '/reset');
		await ctx.control('POST', '/faults', { latencyMs: 20 });
		const three = await createMany(30, 'Three', { concurrency: 3 });
		expect(jsonOf(three.items).map((code) => code.name)).toEqual(names('Three', 30));
		expect(maxInFlight(await posts())).toBeLessThanOrEqual(3);
	});
});
