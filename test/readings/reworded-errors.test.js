'use strict';
/**
 * The fallbacks for other readings of the API decide on what an error is (its status, the fields
 * the service refused), never on the words the nodes show. Here every text of every error the
 * service's answers make is replaced before the node loads, and each fallback still works: the
 * tags resent as a string, `since` in another form, a list that ends with 404 after its first
 * page. One plain error proves the words were indeed replaced.
 */
const path = require('node:path');
const { DIST } = require('../engine/n8n-core');

// Before the node loads: the client calls httpError through this module's exports.
const errors = require(path.join(DIST, 'nodes/DynamicQr/api/edge/errors.js'));
const writeError = errors.httpError;
let reworded = 0;
errors.httpError = (...args) => {
	const error = writeError(...args);
	reworded++;
	error.message = `Reworded error ${reworded}`;
	error.description = 'Reworded description.';
	return error;
};

const { useSandbox } = require('../support/action-sandbox');

const ctx = useSandbox();

function withReadings(...names) {
	beforeAll(() => ctx.control('PUT', '/readings', { names }));
	afterAll(() => ctx.control('PUT', '/readings', { names: [] }));
}

async function runOk(parameters) {
	const result = await ctx.run(parameters);
	expect(result.issues).toBeUndefined();
	expect(result.error).toBeUndefined();
	return result.items;
}

const leadsOfCard = (extra) => ({
	resource: 'lead',
	operation: 'getAll',
	cardId: { __rl: true, mode: 'id', value: ctx.sandbox.cardId },
	returnAll: true,
	...extra,
});

test('the texts are indeed replaced: a missing code fails with the reworded message', async () => {
	const before = reworded;
	const { error } = await ctx.run({
		resource: 'qrCode',
		operation: 'get',
		qrCodeId: { __rl: true, mode: 'id', value: 'AAAAAAAAAAAA' },
	});
	expect(reworded).toBe(before + 1);
	expect(error.message).toBe(`Reworded error ${reworded}`);
	expect(error.httpCode).toBe('404');
});

describe('tags-as-string', () => {
	withReadings('tags-as-string');

	test('Create still resends the refused list as one string', async () => {
		const before = reworded;
		const [created] = await runOk({
			resource: 'qrCode',
			operation: 'create',
			name: 'Reworded tags',
			type: 'url',
			payload_url_url: 'https://example.com/tags',
			additionalFields: { tags: 'spring, print' },
			simplify: false,
		});
		expect(created.json).toMatchObject({ name: 'Reworded tags', tags: ['spring', 'print'] });
		// The 422 on the list was made (and reworded) before the resend.
		expect(reworded).toBe(before + 1);
	});
});

describe.each([['since-date-only'], ['since-unix-seconds']])('%s', (reading) => {
	withReadings(reading);

	test('Lead › Get Many with Since still finds the form the service takes', async () => {
		const add = async (name) => (await ctx.control('POST', '/leads', { name })).data;
		const first = await add(`First ${reading}`);
		await new Promise((resolve) => setTimeout(resolve, 1100));
		const later = await add(`Later ${reading}`);
		const before = reworded;
		const items = await runOk(leadsOfCard({ filters: { since: first.created_at } }));
		expect(items.map((item) => item.json.id)).toEqual([later.id]);
		expect(reworded).toBeGreaterThan(before);
	});
});

describe('per-page-cap-50 + data-only + page-past-end-404', () => {
	withReadings('per-page-cap-50', 'data-only', 'page-past-end-404');

	test('Return All over exactly one full page still ends at the 404', async () => {
		const existing = (await runOk(leadsOfCard())).length;
		for (let i = existing; i < 50; i++) await ctx.control('POST', '/leads', { name: `Lead ${i}` });
		const before = reworded;
		const items = await runOk(leadsOfCard());
		expect(items).toHaveLength(50);
		expect(reworded).toBe(before + 1);
	});
});

afterAll(() => ctx.expectNoKeyLeak());
