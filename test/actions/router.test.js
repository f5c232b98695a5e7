'use strict';
/**
 * The router (actions/router.ts) runs the items of one node run concurrently and still reports
 * as one at a time would (fast by default, issue 17): without Continue On Fail the earliest
 * failing item stops the run. Items that act on one record take effect in input order, whatever
 * Concurrent Requests is, while items of different records still run side by side; the sandbox
 * handles each request after a random delay (latencyJitterMs), as a network would.
 */
const { useSandbox } = require('../support/action-sandbox');

const ctx = useSandbox();

beforeEach(async () => {
	await ctx.control('POST', '/reset');
	await ctx.setPlan(60000, 60000);
});
afterAll(() => ctx.expectNoKeyLeak());

const byId = (value) => ({ __rl: true, mode: 'id', value });
const continueOnFail = { onError: 'continueRegularOutput' };
const JITTER = { latencyJitterMs: 60 };

describe('items run concurrently', () => {
	test('without Continue On Fail the earliest failing item stops the run, as one at a time would', async () => {
		const ids = await ctx.seed(16);
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

describe('items of one record take effect in input order', () => {
	beforeEach(() => ctx.control('POST', '/faults', JITTER));

	const codeNamed = async (name, payload = { email: 'a@example.com' }) =>
		(
			await ctx.run({
				resource: 'qrCode',
				operation: 'create',
				name,
				type: 'email',
				payloadInput: 'json',
				payloadJson: JSON.stringify(payload),
			})
		).items[0].json.id;
	const update = (requestOptions, items) =>
		ctx.run(
			{
				resource: 'qrCode',
				operation: 'update',
				qrCodeId: byId('={{ $json.id }}'),
				updateFields: { name: '={{ $json.name }}', design: '={{ $json.design }}' },
				payloadInput: 'fields',
				type: 'email',
				payload_email_subject: '={{ $json.subject }}',
				requestOptions,
			},
			{ items: items.map((json) => ({ json })) },
		);
	const codeOf = async (id) => (await ctx.allCodes()).find((code) => code.id === id);

	test.each([
		['at default settings', {}],
		['with Concurrent Requests 8', { concurrency: 8 }],
	])(
		'Update of one code by 30 items ends as the last item says (name, payload, design) %s',
		async (_, requestOptions) => {
			const id = await codeNamed('Order');
			for (let round = 0; round < 3; round++) {
				const rows = Array.from({ length: 30 }, (__, index) => ({
					id,
					name: `n${index}`,
					subject: `s${index}`,
					design: JSON.stringify({ foreground_color: `#0000${String(index).padStart(2, '0')}` }),
				}));
				const { items, error } = await update(requestOptions, rows);
				expect(error).toBeUndefined();
				expect(items.map((item) => item.json.name)).toEqual(rows.map((row) => row.name));
				const code = await codeOf(id);
				expect(code.name).toBe('n29');
				expect(code.payload).toEqual({ email: 'a@example.com', subject: 's29' });
				expect(code.design).toMatchObject({ foreground_color: '#000029' });
			}
		},
	);

	test('Update items that change different payload fields of one code keep each other', async () => {
		const id = await codeNamed('Merge');
		const fields = ['subject', 'body'];
		const { error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'update',
				qrCodeId: byId('={{ $json.id }}'),
				payloadInput: 'fields',
				type: 'email',
				payload_email_subject: '={{ $json.field === "subject" ? $json.text : "" }}',
				payload_email_body: '={{ $json.field === "body" ? $json.text : "" }}',
			},
			{
				items: Array.from({ length: 20 }, (_, index) => ({
					json: { id, field: fields[index % 2], text: `${fields[index % 2]} ${index}` },
				})),
			},
		);
		expect(error).toBeUndefined();
		expect((await codeOf(id)).payload).toEqual({
			email: 'a@example.com',
			subject: 'subject 18',
			body: 'body 19',
		});
	});

	test('different codes still run side by side, each code in input order', async () => {
		const ids = [];
		for (const name of ['A', 'B', 'C', 'D']) ids.push(await codeNamed(name));
		const before = (await ctx.requests()).length;
		const rows = Array.from({ length: 40 }, (_, index) => ({
			id: ids[index % 4],
			name: `${'ABCD'[index % 4]}${Math.floor(index / 4)}`,
		}));
		const { error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'update',
				qrCodeId: byId('={{ $json.id }}'),
				updateFields: { name: '={{ $json.name }}' },
				requestOptions: { concurrency: 8 },
			},
			{ items: rows.map((json) => ({ json })) },
		);
		expect(error).toBeUndefined();
		const names = (await ctx.allCodes()).filter((code) => ids.includes(code.id)).map((c) => c.name);
		expect(names.sort()).toEqual(['A9', 'B9', 'C9', 'D9']);
		const patches = (await ctx.requests()).slice(before).filter((r) => r.method === 'PATCH');
		expect(patches).toHaveLength(40);
		// Four codes: up to four of their PATCHes at once, never two of one code.
		expect(Math.max(...patches.map((r) => r.in_flight))).toBeGreaterThan(1);
		expect(Math.max(...patches.map((r) => r.in_flight))).toBeLessThanOrEqual(4);
	});

	test.each([
		['QR Code › Delete', 'qrCode', { qrCodeId: byId('={{ $json.id }}') }],
		[
			'Webhook Endpoint › Delete',
			'webhookEndpoint',
			{ webhookEndpointId: byId('={{ $json.id }}') },
		],
	])(
		'%s of one record twice: the first item deletes it, the second finds it gone',
		async (_, resource, locator) => {
			for (let round = 0; round < 3; round++) {
				const id =
					resource === 'qrCode'
						? await codeNamed(`Gone ${round}`)
						: (
								await ctx.run({
									resource: 'webhookEndpoint',
									operation: 'create',
									url: `https://example.com/hook/${round}`,
									events: ['scan.created'],
								})
							).items[0].json.id;
				const { items } = await ctx.run(
					{ resource, operation: 'delete', ...locator, requestOptions: { concurrency: 8 } },
					{ items: [{ json: { id } }, { json: { id } }], settings: continueOnFail },
				);
				expect(items[0].json).toEqual({ deleted: true });
				expect(items[1].json.error).toMatch(/not found/);
			}
		},
	);
});

describe('each parameter is read once per item', () => {
	const { ExecuteContext } = require('n8n-core');

	test.each([
		['Create with an Idempotency Key (the record the router orders by)', 'create'],
		['Create or Update (the name it matches by)', 'upsert'],
	])('%s: n8n is asked for each parameter of an item once', async (_label, operation) => {
		const asked = new Map();
		// ExecuteContext's getNodeParameter is an own arrow function calling _getNodeParameter.
		const original = ExecuteContext.prototype._getNodeParameter;
		const spy = jest
			.spyOn(ExecuteContext.prototype, '_getNodeParameter')
			.mockImplementation(function (name, itemIndex, ...rest) {
				const key = `${itemIndex}:${name}`;
				asked.set(key, (asked.get(key) ?? 0) + 1);
				return original.call(this, name, itemIndex, ...rest);
			});
		try {
			const { items, error } = await ctx.run(
				{
					resource: 'qrCode',
					operation,
					name: '={{ $json.name }}',
					type: 'url',
					payload_url_url: 'https://example.com/once',
					additionalFields: {
						idempotencyKey: '={{ $json.name }}',
						tags: 'spring, print',
						design: '{"color":"#000000"}',
					},
				},
				{ items: [{ json: { name: 'Once A' } }, { json: { name: 'Once B' } }] },
			);
			expect(error).toBeUndefined();
			expect(items).toHaveLength(2);
		} finally {
			spy.mockRestore();
		}
		for (const item of [0, 1]) {
			for (const name of ['name', 'type', 'additionalFields']) {
				expect([`${item}:${name}`, asked.get(`${item}:${name}`)]).toEqual([`${item}:${name}`, 1]);
			}
		}
	});
});
