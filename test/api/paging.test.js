'use strict';
/**
 * Fast by default (issue 17), as properties the sandbox counts rather than timings: without
 * Request Options the node keeps several requests in flight while the plan has room, meets no
 * 429 on a small plan, keeps output order, pairing and the earliest failure; an explicit
 * Concurrent Requests caps what is in flight; Return All reads every record once, in the API's
 * order, while codes are created and deleted under it.
 */
const { useSandbox, jsonOf } = require('../support/action-sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');

const ctx = useSandbox();

const byId = (value) => ({ __rl: true, mode: 'id', value });

const createMany = (...args) => ctx.createMany(...args);

const names = (prefix, count) => Array.from({ length: count }, (_, i) => `${prefix} ${i}`);
const posts = async () =>
	(await ctx.requests()).filter((r) => r.method === 'POST' && r.path === '/qr-codes');
const listReads = async () =>
	(await ctx.requests()).filter((r) => r.method === 'GET' && r.path === '/qr-codes');
const maxInFlight = (requests) => Math.max(...requests.map((r) => r.in_flight));

/** Creates codes straight through the API (not through the node), one after another. */
async function seed(count) {
	const ids = [];
	for (let i = 0; i < count; i++) {
		const created = await sandboxClient(ctx.sandbox).call('POST', '/qr-codes', {
			name: `Seed ${i}`,
			type: 'url',
			payload: { url: `https://example.com/seed/${i}` },
		});
		ids.push(created.data.id);
	}
	return ids;
}

const setPlan = (rateLimitPerMinute, rateLimitBurst) =>
	ctx.control('POST', '/config', { rateLimitPerMinute, rateLimitBurst });

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

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
		expect(maxInFlight(sent)).toBeLessThanOrEqual(20);
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

	test('without Continue On Fail the earliest failing item stops the run, as one at a time would', async () => {
		const ids = await seed(16);
		const items = ids.map((id, index) => ({
			json: { id: index === 6 || index === 11 ? `unknown${String(index).padStart(5, '0')}` : id },
		}));
		const { error } = await ctx.run(
			{ resource: 'qrCode', operation: 'get', qrCodeId: byId('={{ $json.id }}') },
			{ items },
		);
		expect(error.message).toMatch(/"unknown00006" was not found/);
	});
});

describe('small plans: no 429 storm, no failed item', () => {
	test('60 requests per minute (bucket of 5): 8 creates at default settings meet no 429', async () => {
		await setPlan(60, 5);
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

describe('Return All while the list changes', () => {
	const SEEDED = 350; // 4 pages of 100

	/**
	 * Exact: every code that existed for the whole read (seeded, never deleted) appears exactly
	 * once; nothing appears twice; everything appears in the API's order (newest first). Codes
	 * created or deleted during the read may or may not appear.
	 */
	async function expectExact(items) {
		const all = await ctx.allCodes();
		const order = new Map(all.map((code, index) => [code.id, index])); // oldest first
		const out = jsonOf(items).map((code) => code.id);
		expect(new Set(out).size).toBe(out.length);
		const stable = all.filter((code) => code.name.startsWith('Seed ') && !code.deleted);
		const seen = new Set(out);
		expect(stable.filter((code) => !seen.has(code.id)).map((code) => code.name)).toEqual([]);
		const positions = out.map((id) => order.get(id));
		expect(positions.every((position, i) => i === 0 || position < positions[i - 1])).toBe(true);
		return { out, stable };
	}

	const returnAll = () =>
		ctx.run({ resource: 'qrCode', operation: 'getAll', returnAll: true, simplify: false });

	test('nothing changes: pages 2–4 read at once, page 1 again to confirm, every code once in order', async () => {
		const ids = await seed(SEEDED);
		await ctx.control('POST', '/faults', { latencyMs: 20 });
		const { items, error } = await returnAll();
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((code) => code.id)).toEqual([...ids].reverse());
		const reads = await listReads();
		expect(reads.map((r) => r.query.page).sort()).toEqual(['1', '1', '2', '3', '4']);
		expect(maxInFlight(reads)).toBeGreaterThan(1);
	});

	test.each([
		[
			'one created and one deleted (the oldest) before every page: totals never move',
			{ listChurnCreates: 1, listChurnDeletes: 1, listChurnDeleteAt: 1 },
			40,
		],
		[
			'one created and one deleted (mid-list) before every page',
			{ listChurnCreates: 1, listChurnDeletes: 1, listChurnDeleteAt: 0.5 },
			40,
		],
		[
			'two deleted near the front before each of six pages',
			{ listChurnDeletes: 2, listChurnDeleteAt: 0.1 },
			6,
		],
		['three created before every page', { listChurnCreates: 3 }, 40],
		[
			'one deleted at the front after the first page only',
			{ listChurnDeletes: 1, listChurnDeleteAt: 0 },
			2,
		],
	])('%s', async (_label, churn, reads) => {
		await seed(SEEDED);
		// Pages asked at once are cut last page first: a change between two cuts then pushes
		// records past the later page's start after the page behind it was already cut.
		await ctx.control('POST', '/faults', { ...churn, listChurnReads: reads, listPageDelayMs: 15 });
		const { items, error } = await returnAll();
		expect(error).toBeUndefined();
		const { out, stable } = await expectExact(items);
		expect(out.length).toBeGreaterThanOrEqual(stable.length);
	});

	test('a list that loses records before every page read gives up with an error that says so', async () => {
		await seed(SEEDED);
		await ctx.control('POST', '/faults', {
			listChurnReads: 1000,
			listChurnDeletes: 1,
			listChurnDeleteAt: 0,
		});
		const { error } = await returnAll();
		expect(error.message).toMatch(/kept losing records while it was read/);
		expect(error.description).toMatch(/Run the node again/);
	});

	test('Limit 150 reads 2 pages, at once after the first', async () => {
		await seed(SEEDED);
		const { items } = await ctx.run({
			resource: 'qrCode',
			operation: 'getAll',
			returnAll: false,
			limit: 150,
		});
		expect(items).toHaveLength(150);
		expect((await listReads()).map((r) => r.query.page)).toEqual(['1', '2']);
	});
});
