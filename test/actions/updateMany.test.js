'use strict';
/**
 * QR Code › Update Many through the engine against the sandbox (issue 43): filters (the API's and
 * the node's Name), a list that shifts while it is read, mixed types, Dry Run, At Most, a retry
 * after a failure half way, and the way back through QR Code › Update.
 */
const { loadExamples } = require('../../dev/examples');
const { sandboxClient } = require('../../dev/sandbox/client');
const { useSandbox, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();
afterAll(() => ctx.expectNoKeyLeak());
beforeEach(() => ctx.control('POST', '/reset'));

const api = () => sandboxClient(ctx.sandbox);
const create = async (name, type = 'url', payload = { url: `https://example.com/${name}` }) =>
	(await api().call('POST', '/qr-codes', { name, type, payload })).data;

/** What Update Many may change, as the API shows each live code: by id. */
const snapshot = async () =>
	new Map(
		(await ctx.allCodes())
			.filter((code) => !code.deleted)
			.map(({ id, name, type, payload, paused }) => [id, { name, type, payload, paused }]),
	);
const patches = async () =>
	(await ctx.requests()).filter((r) => r.method === 'PATCH').map((r) => r.path.split('/').pop());

/** Re-point the matched URL codes to one address. */
const repoint = (url, extra = {}) => ({
	resource: 'qrCode',
	operation: 'updateMany',
	payloadInput: 'fields',
	type: 'url',
	payload_url_url: url,
	...extra,
});
const run = (parameters, options = {}) => ctx.run(parameters, { typeVersion: 2, ...options });

/** QR Code › Update from each item's `before`: the way back, as the example has it. */
const RESTORE = loadExamples()['switch-campaign-with-undo.json'].nodes.find(
	(node) => node.name === 'Undo: put each code back',
).parameters;

describe('which codes', () => {
	test("Search, Type and Archived go to the API; Name (whole name, any case, * any text) is the node's", async () => {
		const spring = [await create('Spring Flyer A'), await create('spring flyer b')];
		await create('Spring Poster');
		await create('Autumn Flyer');
		const email = await create('Spring Flyer Mail', 'email', { email: 'a@example.com' });
		const archived = await create('Spring Flyer Old');
		await ctx.control('PATCH', `/qr-codes/${archived.id}`, { archived: true });

		const { items, error } = await run(
			repoint('https://example.com/new', {
				filters: { search: 'flyer', name: 'SPRING flyer *', archived: false },
			}),
		);
		expect(error).toBeUndefined();
		const out = jsonOf(items);
		// Newest first, as the API lists them; the email code is matched and reported, not changed.
		expect(out.map((code) => code.id)).toEqual([email.id, spring[1].id, spring[0].id]);
		expect(out[0]).toMatchObject({ skipped: expect.stringMatching(/email code/), written: false });
		const lists = (await ctx.requests()).filter(
			(r) => r.method === 'GET' && r.path === '/qr-codes',
		);
		expect(lists[0].query).toMatchObject({ search: 'flyer', archived: 'false' });
		expect(lists[0].query.name).toBeUndefined();

		const typed = await run(repoint('https://example.com/new', { filters: { type: 'email' } }));
		expect(jsonOf(typed.items).map((code) => code.id)).toEqual([email.id]);
		const old = await run(repoint('https://example.com/new', { filters: { archived: true } }));
		expect(jsonOf(old.items).map((code) => code.id)).toEqual([archived.id]);
	});

	test('a list that shifts while it is read: every code there all along changed exactly once', async () => {
		const seeded = await ctx.seed(230);
		await ctx.control('POST', '/faults', {
			listChurnReads: 40,
			listChurnCreates: 1,
			listChurnDeletes: 1,
			listChurnDeleteAt: 0.5,
			listPageDelayMs: 10,
		});
		const { items, error } = await run(
			repoint('https://example.com/moved', { dryRun: false, atMost: 1000 }),
		);
		expect(error).toBeUndefined();
		const out = jsonOf(items);
		const ids = out.map((code) => code.id);
		expect(new Set(ids).size).toBe(ids.length);
		// A code deleted after its page was read is listed, and reported rather than failing the run.
		for (const code of out.filter((entry) => !entry.written))
			expect(code.skipped).toBe('deleted since it was listed');
		const after = await snapshot();
		const stable = seeded.filter((id) => after.has(id));
		expect(stable.length).toBeGreaterThan(150);
		for (const id of stable) expect(after.get(id).payload.url).toBe('https://example.com/moved');
		const patched = await patches();
		expect(new Set(patched).size).toBe(patched.length);
	});
});

describe('what changes', () => {
	test('Dry Run (the default) writes nothing and says what each code would hold', async () => {
		const a = await create('Promo A');
		await create('Promo B');
		const before = await snapshot();
		const { items, error } = await run(
			repoint('https://example.com/summer', { updateFields: { name: 'Summer', paused: true } }),
		);
		expect(error).toBeUndefined();
		expect(await snapshot()).toEqual(before);
		expect(await patches()).toEqual([]);
		const last = jsonOf(items).pop();
		expect(last).toEqual({
			id: a.id,
			dryRun: true,
			written: false,
			changes: ['name', 'payload', 'paused'],
			before: { id: a.id, name: 'Promo A', paused: false, type: 'url', payload: a.payload },
			after: {
				id: a.id,
				name: 'Summer',
				paused: true,
				type: 'url',
				payload: { url: 'https://example.com/summer' },
			},
		});
	});

	test('mixed types: a payload change skips codes of another type; Update Fields change every type', async () => {
		const url = await create('Mixed url');
		const phone = await create('Mixed phone', 'phone', { phone: '+14155550123' });
		const moved = await run(repoint('https://example.com/m', { dryRun: false }));
		expect(jsonOf(moved.items).map(({ id, written, skipped }) => [id, written, !!skipped])).toEqual(
			[
				[phone.id, false, true],
				[url.id, true, false],
			],
		);
		const paused = await run({
			resource: 'qrCode',
			operation: 'updateMany',
			updateFields: { paused: true },
			dryRun: false,
		});
		expect(jsonOf(paused.items).map((code) => code.written)).toEqual([true, true]);
		expect([...(await snapshot()).values()].map((code) => code.paused)).toEqual([true, true]);
	});

	test('a code already holding the new values costs no request; a phone number is compared dialled', async () => {
		const same = await create('Same', 'phone', { phone: '+1 (415) 555-0123' });
		const other = await create('Other', 'phone', { phone: '+14155550999' });
		const { items } = await run({
			resource: 'qrCode',
			operation: 'updateMany',
			payloadInput: 'fields',
			type: 'phone',
			payload_phone_phone: '+14155550123',
			dryRun: false,
		});
		expect(jsonOf(items).map(({ id, written, changes }) => [id, written, changes])).toEqual([
			[other.id, true, ['payload']],
			[same.id, false, []],
		]);
		expect(await patches()).toEqual([other.id]);
	});

	test('Replace Payload: a field the new payload leaves out differs; a second run writes nothing', async () => {
		const mail = await create('Mail', 'email', { email: 'a@example.com', subject: 'Hi' });
		const parameters = {
			resource: 'qrCode',
			operation: 'updateMany',
			payloadInput: 'json',
			type: 'email',
			payloadJson: '{"email": "a@example.com"}',
			replacePayload: true,
			dryRun: false,
		};
		const first = await run(parameters);
		expect(jsonOf(first.items)).toMatchObject([
			{ id: mail.id, written: true, changes: ['payload'] },
		]);
		expect((await snapshot()).get(mail.id).payload).toEqual({ email: 'a@example.com' });
		const second = await run(parameters);
		expect(jsonOf(second.items)).toMatchObject([{ written: false, changes: [] }]);
		expect(await patches()).toEqual([mail.id]);
	});

	test('At Most: more matches stop the run before any write, naming the count and the field', async () => {
		for (const name of ['One', 'Two', 'Three']) await create(name);
		const { error } = await run(repoint('https://example.com/x', { dryRun: false, atMost: 2 }));
		expect(error.message).toMatch(/^3 codes match, more than At Most \(2\)/);
		expect(error.description).toMatch(/raise At Most to 3/);
		expect(await patches()).toEqual([]);
		const fits = await run(repoint('https://example.com/x', { dryRun: false, atMost: 3 }));
		expect(fits.error).toBeUndefined();
	});

	test('nothing to change fails the item before any request', async () => {
		const { error } = await run({ resource: 'qrCode', operation: 'updateMany' });
		expect(error.message).toMatch(/Nothing to update/);
		expect(await ctx.requests()).toEqual([]);
	});
});

describe('failures and the way back', () => {
	test('a failure half way fails the node naming the codes changed; a re-run changes only the rest', async () => {
		const ids = await ctx.seed(8);
		await ctx.control('POST', '/faults', { patchFailAfter: 3, patchFailures: 1 });
		const parameters = repoint('https://example.com/retry', {
			dryRun: false,
			requestOptions: { concurrency: 1 },
		});
		const first = await run(parameters);
		const newest = [...ids].reverse();
		expect(first.error.message).toMatch(new RegExp(`^Code ${newest[3]}: `));
		expect(first.error.description).toContain(
			`Changed before it stopped: ${newest.slice(0, 3).join(', ')}.`,
		);
		const tried = await patches();
		expect(tried).toEqual(newest.slice(0, 4));

		const again = await run(parameters);
		expect(again.error).toBeUndefined();
		expect(jsonOf(again.items).map((code) => code.written)).toEqual([
			false,
			false,
			false,
			...Array(5).fill(true),
		]);
		// The failed code's PATCH changed nothing: every code was changed exactly once.
		const succeeded = (await ctx.requests())
			.filter((r) => r.method === 'PATCH' && r.status === 200)
			.map((r) => r.path.split('/').pop());
		expect(succeeded.sort()).toEqual([...ids].sort());
		for (const code of (await snapshot()).values())
			expect(code.payload.url).toBe('https://example.com/retry');
	});

	test('Continue On Fail: a failed code is an item of its own with the error; the others are written', async () => {
		const ids = await ctx.seed(4);
		await ctx.control('POST', '/faults', { patchFailAfter: 1, patchFailures: 1 });
		const { items, error } = await run(
			repoint('https://example.com/cof', { dryRun: false, requestOptions: { concurrency: 1 } }),
			{ settings: { continueOnFail: true } },
		);
		expect(error).toBeUndefined();
		const out = jsonOf(items);
		expect(out.map((code) => code.id)).toEqual([...ids].reverse());
		expect(out.map((code) => code.written)).toEqual([true, undefined, true, true]);
		expect(out[1]).toMatchObject({ error: expect.any(String), before: { id: ids[2] } });
		expect(items.every((item) => item.pairedItem.item === 0)).toBe(true);
	});

	test('QR Code › Update fed with each item restores every code (the two-node workflow)', async () => {
		await create('Back url');
		await create('Back mail', 'email', { email: 'a@example.com', subject: 'Hi' });
		await create('Back phone', 'phone', { phone: '+14155550123' });
		const original = await snapshot();
		const changed = await run(
			repoint('https://example.com/campaign', {
				dryRun: false,
				updateFields: { name: 'Campaign', paused: true },
			}),
		);
		expect(changed.error).toBeUndefined();
		expect(await snapshot()).not.toEqual(original);
		for (const version of [1, 2]) {
			const back = await run(RESTORE, { typeVersion: version, items: changed.items });
			expect(back.error).toBeUndefined();
			expect(await snapshot()).toEqual(original);
		}
	});

	test('both node versions have it; the items of a run go one after another', async () => {
		await create('Order');
		const { items, error } = await run(
			{
				resource: 'qrCode',
				operation: 'updateMany',
				updateFields: { name: '={{ $json.name }}' },
				dryRun: false,
			},
			{ typeVersion: 1, items: [{ json: { name: 'First' } }, { json: { name: 'Second' } }] },
		);
		expect(error).toBeUndefined();
		expect(jsonOf(items).map((code) => [code.before.name, code.after.name])).toEqual([
			['Order', 'First'],
			['First', 'Second'],
		]);
		expect(items.map((item) => item.pairedItem.item)).toEqual([0, 1]);
	});
});
