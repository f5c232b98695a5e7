'use strict';

const { useSandbox, jsonOf, CREATE_FROM_ITEMS } = require('../support/action-sandbox');

const ctx = useSandbox();

const createMany = (...args) => ctx.createMany(...args);

const liveCodesNamed = async (prefix) =>
	(await ctx.allCodes()).filter((code) => !code.deleted && code.name.startsWith(`${prefix} `));

const createPosts = async () =>
	(await ctx.requests()).filter((r) => r.method === 'POST' && r.path === '/qr-codes');

afterAll(() => ctx.expectNoKeyLeak());

beforeEach(async () => {
	await ctx.control('POST', '/reset');
});

describe('bulk create and pagination', () => {
	test('230 codes with 8 concurrent requests keep input order and pairing; Get Many pages through them', async () => {
		const { items, error } = await createMany(230, 'Bulk', { concurrency: 8 });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(230);
		items.forEach((item, index) => {
			expect(item.json.name).toBe(`Bulk ${index}`);
			expect(item.pairedItem).toEqual({ item: index });
		});
		expect(new Set(jsonOf(items).map((code) => code.id)).size).toBe(230);

		const all = await ctx.run({
			resource: 'qrCode',
			operation: 'getAll',
			returnAll: true,
			simplify: false,
		});
		expect(all.items).toHaveLength(230);
		expect(new Set(jsonOf(all.items).map((code) => code.id)).size).toBe(230);
		const pages = (await ctx.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/qr-codes',
		);
		// Page 1 tells there are 3; 2 and 3 are read at once; page 1 again shows nothing changed.
		expect(pages.map((r) => r.query.per_page)).toEqual(['100', '100', '100', '100']);
		expect(pages.map((r) => r.query.page).sort()).toEqual(['1', '1', '2', '3']);
		expect([pages[0].query.page, pages[3].query.page]).toEqual(['1', '1']);

		const limited = await ctx.run({
			resource: 'qrCode',
			operation: 'getAll',
			returnAll: false,
			limit: 150,
		});
		expect(limited.items).toHaveLength(150);
		// Newest first, as the API lists them.
		expect(limited.items[0].json.name).toBe('Bulk 229');

		const byDefault = await ctx.run({ resource: 'qrCode', operation: 'getAll' });
		expect(byDefault.items).toHaveLength(50);
	});
});

describe('no duplicates', () => {
	test('connections dropped after a create was committed: retried with the same key, zero duplicates', async () => {
		await ctx.control('POST', '/faults', { dropAfterCommitCount: 3 });
		const { items, error } = await createMany(5, 'Dropped');
		expect(error).toBeUndefined();
		expect(items).toHaveLength(5);
		const codes = await liveCodesNamed('Dropped');
		expect(codes).toHaveLength(5);
		expect(new Set(jsonOf(items).map((code) => code.id))).toEqual(
			new Set(codes.map((code) => code.id)),
		);
		const keys = (await createPosts()).map((r) => r.idempotency_key);
		// Three creates were sent twice, each time with the key of its first attempt.
		expect(keys).toHaveLength(8);
		expect(new Set(keys).size).toBe(5);
	});

	test("n8n's Retry On Fail re-sends the same Idempotency-Key: no second code", async () => {
		const result = await ctx.run(CREATE_FROM_ITEMS, {
			// Item 1 fails every try (bad URL), so n8n retries the node, item 0 included.
			items: [
				{ json: { name: 'Retried 0', url: 'https://example.com/0' } },
				{ json: { name: 'Retried 1', url: 'not a url' } },
			],
			settings: { retryOnFail: true, maxTries: 3, waitBetweenTries: 0 },
		});
		expect(result.error.message).toMatch(/Invalid "URL" \(payload\.url\) in item 1/);
		const posts = await createPosts();
		expect(posts).toHaveLength(3);
		expect(new Set(posts.map((r) => r.idempotency_key)).size).toBe(1);
		expect(await liveCodesNamed('Retried')).toHaveLength(1);
	});

	test("n8n's Retry of a failed execution: the retry finds the first execution's id in the node's context n8n carries over, and sends the same keys", async () => {
		const parameters = CREATE_FROM_ITEMS;
		const items = [0, 1, 2].map((index) => ({
			json: { name: `Kept ${index}`, url: `https://example.com/kept/${index}` },
		}));
		const first = await ctx.run(parameters, { items, executionId: 'execution-first' });
		expect(first.error).toBeUndefined();
		const kept = first.run.data.executionData.contextData;
		expect(kept['node:Dynamic QR']).toEqual({ runId: 'execution-first' });

		// A retry is a new execution with a new id, started from the failed one's data.
		const retry = await ctx.run(parameters, {
			items,
			executionId: 'execution-retry',
			contextData: kept,
		});
		expect(retry.error).toBeUndefined();
		expect(retry.run.data.executionData.contextData['node:Dynamic QR']).toEqual({
			runId: 'execution-first',
		});
		expect(jsonOf(retry.items).map((code) => code.id)).toEqual(
			jsonOf(first.items).map((code) => code.id),
		);
		const keys = (await createPosts()).map((r) => r.idempotency_key);
		expect(keys).toHaveLength(6);
		expect(keys.slice(3).sort()).toEqual(keys.slice(0, 3).sort());
		expect(await liveCodesNamed('Kept')).toHaveLength(3);

		// Another execution without that custom data is a new run.
		await ctx.run(parameters, { items, executionId: 'execution-new' });
		expect(await liveCodesNamed('Kept')).toHaveLength(6);
	});

	test('the default key differs between executions, so a new run makes a new code', async () => {
		await createMany(1, 'Twice');
		await createMany(1, 'Twice');
		expect(await liveCodesNamed('Twice')).toHaveLength(2);
	});
});
