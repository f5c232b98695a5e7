'use strict';
/**
 * Pacing shared by every request of a node run (api/pacing.ts), as the sandbox counts it: a
 * small plan meets no 429 at default settings (fast by default, issue 17), a 429 from another
 * client of the key holds every request of the run, not only the one that met it; a 429 storm
 * is waited out (Retry-After) with zero failed items, up to Max Rate Limit Wait.
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
	const { Pace } = require(path.join(DIST, 'nodes/DynamicQr/api/pacing.js'));

	test('is refused at once and takes no slot; the next request gets that turn', async () => {
		const pace = new Pace();
		pace.intervalMs = 200;
		expect(await pace.waitForSlot()).toBe(0); // free; the next turn is 200 ms away
		expect(await pace.waitForSlot(50)).toBeUndefined();
		// The refused request took no turn: this one waits for the first free one, not the one after.
		const waited = await pace.waitForSlot();
		expect(waited).toBeGreaterThan(0);
		expect(waited).toBeLessThanOrEqual(200);
	});

	test('a Retry-After hold further away than the wait allowed is refused too', async () => {
		const pace = new Pace();
		pace.hold(30);
		expect(await pace.waitForSlot(1000)).toBeUndefined();
	});
});
