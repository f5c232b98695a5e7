'use strict';
/**
 * Return All (api/paging.ts), as the sandbox counts it (fast by default, issue 17): pages after
 * the first are read at once and page 1 again to confirm; every record is read once, in the
 * API's order, while codes are created and deleted under it (a page that moved steps back and
 * is read again); a Limit reads no page more than it needs.
 */
const { useSandbox, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await ctx.setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

const listReads = async () =>
	(await ctx.requests()).filter((r) => r.method === 'GET' && r.path === '/qr-codes');
const maxInFlight = (requests) => Math.max(...requests.map((r) => r.in_flight));

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
		const ids = await ctx.seed(SEEDED);
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
		await ctx.seed(SEEDED);
		// Pages asked at once are cut last page first: a change between two cuts then pushes
		// records past the later page's start after the page behind it was already cut.
		await ctx.control('POST', '/faults', { ...churn, listChurnReads: reads, listPageDelayMs: 15 });
		const { items, error } = await returnAll();
		expect(error).toBeUndefined();
		const { out, stable } = await expectExact(items);
		expect(out.length).toBeGreaterThanOrEqual(stable.length);
	});

	test('a list that loses records before every page read gives up with an error that says so', async () => {
		await ctx.seed(SEEDED);
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
		await ctx.seed(SEEDED);
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
