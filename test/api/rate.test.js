'use strict';
/**
 * The run's rate model (api/rate.ts), as the sandbox counts it. Requests in flight: without
 * Request Options up to 10 creates are in flight at once, with output order and pairing kept; an
 * explicit Concurrent Requests caps them. Pacing shared by every request of a run: a small plan
 * meets no 429 at default settings (fast by default, issue 17), a 429 from another client of the
 * key holds every request of the run, not only the one that met it; a 429 storm is waited out
 * (Retry-After) with zero failed items, up to Max Rate Limit Wait.
 */
const path = require('node:path');

const { useSandbox, jsonOf } = require('../support/action-sandbox');
const { DIST } = require('../engine/n8n-core');

const ctx = useSandbox();

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await ctx.setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

const createMany = (...args) => ctx.createMany(...args);

const names = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
const liveCodesNamed = async (prefix) =>
	(await ctx.allCodes()).filter((code) => !code.deleted && code.name.startsWith(`${prefix} `));
const posts = async () =>
	(await ctx.requests()).filter((r) => r.method === 'POST' && r.path === '/qr-codes');
const maxInFlight = (requests) => Math.max(...requests.map((r) => r.in_flight));

describe('small plans: no 429 storm, no failed item', () => {
	test('60 requests per minute (bucket of 5): 8 creates at default settings meet no 429', async () => {
		await ctx.setPlan(60, 5);
		const { items, error } = await createMany(8, 'Small');
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((code) => code.name)).toEqual(names('Small', 8));
		const statuses = (await posts()).map((r) => r.status);
		expect(statuses.filter((status) => status === 429)).toHaveLength(0);
		expect(statuses).toHaveLength(8);
	});

	test('a 429 from another client of the key holds every request of the run, not only the one that met it', async () => {
		await ctx.control('POST', '/faults', {
			latencyMs: 20,
			status429Count: 1,
			retryAfterSeconds: 1,
		});
		const { items, error } = await createMany(20, 'Held');
		expect(error).toBeUndefined();
		expect(items).toHaveLength(20);
		const statuses = (await posts()).map((r) => r.status);
		expect(statuses.filter((status) => status === 429)).toHaveLength(1);
		expect(statuses.filter((status) => status === 201)).toHaveLength(20);
	});
});

describe('rate limits', () => {
	test('a 429 storm is waited out (Retry-After) with zero failed items', async () => {
		await ctx.control('POST', '/faults', { status429Count: 4, retryAfterSeconds: 1 });
		const { items, error } = await createMany(5, 'Storm', { concurrency: 2 });
		expect(error).toBeUndefined();
		expect(items.map((item) => item.json.name)).toEqual([0, 1, 2, 3, 4].map((i) => `Storm ${i}`));
		expect(await liveCodesNamed('Storm')).toHaveLength(5);
		const statuses = (await posts()).map((r) => r.status);
		expect(statuses.filter((status) => status === 429)).toHaveLength(4);
		expect(statuses.filter((status) => status === 201)).toHaveLength(5);
	});

	test('beyond Max Rate Limit Wait the item fails with a 429 that says what to do', async () => {
		await ctx.control('POST', '/faults', { status429Count: 5, retryAfterSeconds: 2 });
		const { error } = await createMany(1, 'Patience', { maxRateLimitWait: 1 });
		expect(error.httpCode).toBe('429');
		expect(error.message).toMatch(/rate limit was still reached after waiting 0 seconds/);
		expect(error.description).toMatch(/Max Rate Limit Wait/);
	});

	test('a tight plan limit with concurrent requests still gives zero failed items', async () => {
		await ctx.control('POST', '/config', { rateLimitPerMinute: 1200, rateLimitBurst: 10 });
		try {
			const { items, error } = await createMany(40, 'Paced', { concurrency: 5 });
			expect(error).toBeUndefined();
			expect(items.map((item) => item.json.name)).toEqual(
				Array.from({ length: 40 }, (_, i) => `Paced ${i}`),
			);
			expect(await liveCodesNamed('Paced')).toHaveLength(40);
		} finally {
			await ctx.control('POST', '/config', { rateLimitPerMinute: 60000, rateLimitBurst: 60000 });
		}
	});
});

describe('a turn further away than a run can wait (a poll near the end of its budget)', () => {
	const { RateModel } = require(path.join(DIST, 'nodes/DynamicQr/api/rate.js'));

	test('is refused at once and takes no turn; the next request gets that turn', async () => {
		const rate = new RateModel();
		rate.intervalMs = 200;
		expect(await rate.acquire()).toBe(0); // free; the next turn is 200 ms away
		rate.release();
		expect(await rate.acquire(50)).toBeUndefined();
		// The refused request took no turn: this one waits for the first free one, not the one after.
		const waited = await rate.acquire();
		expect(waited).toBeGreaterThan(0);
		expect(waited).toBeLessThanOrEqual(200);
	});

	test('a Retry-After hold further away than the wait allowed is refused too, holding no room', async () => {
		const rate = new RateModel();
		rate.hold(30);
		expect(await rate.acquire(1000)).toBeUndefined();
		expect(await rate.acquire(1000)).toBeUndefined();
	});
});

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
