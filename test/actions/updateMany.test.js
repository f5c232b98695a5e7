'use strict';
/**
 * QR Code › Update Many through the engine against the sandbox (issue 43): filters (the API's and
 * the node's Name), a list that shifts while it is read, mixed types, Dry Run, At Most, a retry
 * after a failure half way, and the way back through QR Code › Update; the way back after a
 * failure and n8n's Retry, a deletion, several items and a design change (issue 53).
 */
const { loadExamples } = require('../../dev/examples');
const { waitFor } = require('../../dev/wait-for');
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
const EXAMPLE = loadExamples()['switch-campaign-with-undo.json'];
const RESTORE = EXAMPLE.nodes.find((node) => node.name === 'Undo: put each code back').parameters;

/**
 * The example's way back: its Filter keeps the items that hold `before` (a code deleted meanwhile
 * has none), then its Undo puts each code back. The Filter is n8n's own node, run by the e2e
 * tests; here its wiring and condition are read from the example and applied as n8n would.
 */
const wayBack = async (items) => {
	const filter = EXAMPLE.nodes.find((node) => node.type === 'n8n-nodes-base.filter');
	expect(EXAMPLE.connections['Switch the spring flyers'].main[0][0].node).toBe(filter.name);
	expect(EXAMPLE.connections[filter.name].main[0][0].node).toBe('Undo: put each code back');
	const [condition] = filter.parameters.conditions.conditions;
	expect(condition).toMatchObject({
		leftValue: '={{ $json.before }}',
		operator: { type: 'object', operation: 'exists' },
	});
	const back = await run(RESTORE, { items: items.filter((item) => item.json.before) });
	expect(back.error).toBeUndefined();
	return back;
};
const idOf = (request) => request.path.split('/').pop();

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
		expect(out[0]).toMatchObject({
			skipped: 'an Email code: the payload set here is for URL codes',
			written: false,
		});
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
		expect(error.message).toMatch(/^3 codes would be written, more than At Most \(2\)/);
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
		expect(out[1].error).toMatch(new RegExp(`^Code ${ids[2]}: `));
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
		// The second item's `before` is the code before the first change of this execution.
		expect(jsonOf(items).map((code) => [code.before.name, code.after.name])).toEqual([
			['Order', 'First'],
			['Order', 'Second'],
		]);
		expect(items.map((item) => item.pairedItem.item)).toEqual([0, 1]);
	});
});

describe('the way back always works', () => {
	const SUMMER = 'https://example.com/summer-sale';

	test("a failure part way, then n8n's Retry: the error names the first failed code in list order; the retry's items hold each code's values from before the first attempt, and the way back restores all 30", async () => {
		const ids = await ctx.seed(30);
		const original = await snapshot();
		// 11 writes go through, the next 3 fail (500); requests in flight are answered in any order.
		await ctx.control('POST', '/faults', {
			patchFailAfter: 11,
			patchFailures: 3,
			latencyJitterMs: 30,
		});
		const parameters = repoint(SUMMER, { dryRun: false, requestOptions: { concurrency: 10 } });
		const failed = await run(parameters, { executionId: 'execution-failed' });
		const refused = (await ctx.requests())
			.filter((r) => r.method === 'PATCH' && r.status === 500)
			.map(idOf);
		const listOrder = [...ids].reverse();
		expect(refused).toHaveLength(3);
		const firstRefused = listOrder.find((id) => refused.includes(id));
		expect(failed.error.message).toMatch(new RegExp(`^Code ${firstRefused}: `));
		const changed = [...(await snapshot()).values()].filter((code) => code.payload.url === SUMMER);
		expect(changed.length).toBeGreaterThanOrEqual(11);

		// n8n's Retry: a new execution with a new id, mode "retry", the failed node run again with
		// all its input items, from the failed execution's data (its node contexts).
		const retry = await run(parameters, {
			executionId: 'execution-retry',
			mode: 'retry',
			contextData: failed.run.data.executionData.contextData,
		});
		expect(retry.error).toBeUndefined();
		const out = jsonOf(retry.items);
		expect(out.map((code) => code.id)).toEqual(listOrder);
		for (const code of out) expect(code.before).toEqual({ id: code.id, ...original.get(code.id) });
		expect(out.filter((code) => code.written)).toHaveLength(30 - changed.length);

		await wayBack(retry.items);
		expect(await snapshot()).toEqual(original);
	});

	test('a code deleted during the run is an item without `before`: the way back passes over it and restores the others', async () => {
		const ids = await ctx.seed(12);
		const original = await snapshot();
		await ctx.control('POST', '/faults', { latencyMs: 40 });
		// The oldest code is the last in list order: deleted once three codes are written.
		const running = run(repoint(SUMMER, { dryRun: false, requestOptions: { concurrency: 1 } }));
		await waitFor(async () => (await patches()).length >= 3, {
			what: 'three writes',
			intervalMs: 10,
		});
		await api().call('DELETE', `/qr-codes/${ids[0]}`);
		const { items, error } = await running;
		expect(error).toBeUndefined();
		const out = jsonOf(items);
		expect(out.at(-1)).toEqual({
			id: ids[0],
			skipped: 'deleted since it was listed',
			dryRun: false,
		});
		expect(out.slice(0, -1).every((code) => code.written)).toBe(true);

		await wayBack(items);
		original.delete(ids[0]);
		expect(await snapshot()).toEqual(original);
	});

	test('two input items changing the same codes: each item holds the values before the first change, and the way back restores them', async () => {
		await create('Twice A');
		await create('Twice B', 'email', { email: 'b@example.com' });
		const original = await snapshot();
		const { items, error } = await run(
			{
				resource: 'qrCode',
				operation: 'updateMany',
				updateFields: { name: '={{ $json.name }}' },
				dryRun: false,
			},
			{ items: [{ json: { name: 'First' } }, { json: { name: 'Second' } }] },
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(4);
		for (const { json } of items)
			expect(json.before).toEqual({ id: json.id, ...original.get(json.id) });
		await wayBack(items);
		expect(await snapshot()).toEqual(original);
	});

	test('Dry Run over At Most still lists what would change, and says the real run would be refused and how to raise the limit', async () => {
		for (const name of ['One', 'Two', 'Three']) await create(name);
		const { items, error } = await run(repoint('https://example.com/x', { atMost: 2 }));
		expect(error).toBeUndefined();
		const out = jsonOf(items);
		expect(out).toHaveLength(3);
		for (const code of out) {
			expect(code).toMatchObject({ dryRun: true, written: false, changes: ['payload'] });
			expect(code.notes).toEqual([
				'3 codes would be written, more than At Most (2): a real run would change nothing. Narrow the filters, or raise At Most to 3.',
			]);
		}
		expect(await patches()).toEqual([]);
	});

	test('At Most counts the codes that would be written, not the matches', async () => {
		const moved = 'https://example.com/moved';
		for (const name of ['Moved 1', 'Moved 2', 'Moved 3']) await create(name, 'url', { url: moved });
		const stale = await create('Stale');
		await create('Mail', 'email', { email: 'm@example.com' });
		const { items, error } = await run(repoint(moved, { dryRun: false, atMost: 1 }));
		expect(error).toBeUndefined();
		expect(
			jsonOf(items)
				.filter((code) => code.written)
				.map((code) => code.id),
		).toEqual([stale.id]);
		expect(await patches()).toEqual([stale.id]);

		for (const name of ['Stale 2', 'Stale 3']) await create(name);
		const refused = await run(repoint(moved, { dryRun: false, atMost: 1 }));
		expect(refused.error.message).toBe(
			'2 codes would be written, more than At Most (1); nothing was changed',
		);
		expect(await patches()).toEqual([stale.id]);
	});

	test('On Error "Continue (using error output)": a failed code goes to the error output, named; the others are written', async () => {
		const ids = await ctx.seed(4);
		await ctx.control('POST', '/faults', { patchFailAfter: 1, patchFailures: 1 });
		const { items, runs, error } = await run(
			repoint('https://example.com/branch', {
				dryRun: false,
				requestOptions: { concurrency: 1 },
			}),
			{ settings: { onError: 'continueErrorOutput' } },
		);
		expect(error).toBeUndefined();
		const newest = [...ids].reverse();
		expect(jsonOf(items).map((code) => [code.id, code.written])).toEqual(
			[newest[0], newest[2], newest[3]].map((id) => [id, true]),
		);
		const failed = jsonOf(runs.at(-1).data.main[1]);
		// n8n moves an item whose only key is `error` there (1.x and 2.x), merged with its input item.
		expect(failed).toEqual([
			{ error: expect.stringMatching(new RegExp(`^Code ${newest[1]}: .*500`)) },
		]);
	});
});

describe.each([
	["the sandbox's reading: a design sent replaces the whole design", [], null],
	['reading "design-merged": the keys a design leaves out are kept', ['design-merged'], 'logo'],
])('a Design change, under %s', (_reading, readings, keptLogo) => {
	beforeEach(() => ctx.control('PUT', '/readings', { names: readings }));
	afterAll(() => ctx.control('PUT', '/readings', { names: [] }));

	test('Dry Run and every item say the design is sent as given, not compared and not undone; each item shows the design the answer holds', async () => {
		const logoId = await ctx.uploadLogo();
		const code = (
			await api().call('POST', '/qr-codes', {
				name: 'Logo flyer',
				type: 'url',
				payload: { url: 'https://example.com/logo' },
				design: { logo_upload_id: logoId, foreground: '#000000' },
			})
		).data;
		const recolour = (dryRun) => ({
			resource: 'qrCode',
			operation: 'updateMany',
			updateFields: { design: '{"foreground": "#aa0000"}' },
			dryRun,
		});
		const note = expect.stringMatching(
			/^Design is sent as given: the service shows no design in its lists, so it is not compared, and the way back .*does not restore it/,
		);
		const dry = jsonOf((await run(recolour(true))).items);
		expect(dry).toEqual([expect.objectContaining({ id: code.id, notes: [note] })]);

		const live = jsonOf((await run(recolour(false))).items);
		const stored = (await ctx.allCodes()).find((entry) => entry.id === code.id).design;
		expect(stored.foreground).toBe('#aa0000');
		expect(stored.logo_upload_id).toBe(keptLogo && logoId);
		expect(live).toEqual([
			expect.objectContaining({ id: code.id, written: true, notes: [note], design: stored }),
		]);
	});
});
