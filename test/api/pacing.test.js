'use strict';
/**
 * Pacing shared by every request of a node run (api/pacing.ts), as the sandbox counts it (fast
 * by default, issue 17): a small plan meets no 429 at default settings, and a 429 from another
 * client of the key holds every request of the run, not only the one that met it.
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
