'use strict';
/**
 * Codes of mixed types from data (a sheet, a CRM): Type from an expression, the payload as JSON,
 * as mixed-type fields mapped by name, or as the per-type fields; on Create, Update and Static
 * Generate. Every run passes n8n's own pre-run parameter check first (runNode does it), as a
 * user's run must.
 */
const { useSandbox, decodeQr, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();
afterAll(() => ctx.expectNoKeyLeak());

const continueOnFail = { onError: 'continueRegularOutput' };
const ROWS = [
	{ row: 'r1', type: 'url', name: 'Shop', payload: { url: 'https://example.com/shop' } },
	{ row: 'r2', type: 'whatsapp', name: 'Chat', payload: { phone: '+14155550123', message: 'Hi' } },
	{
		row: 'r3',
		type: 'email',
		name: 'Mail',
		payload: { email: 'hello@example.com', subject: 'Hello' },
	},
	{
		row: 'r4',
		type: 'link_bio',
		name: 'Links',
		payload: { title: 'All links', links: [{ title: 'Shop', url: 'https://example.com/shop' }] },
	},
	{
		row: 'r5',
		type: 'event',
		name: 'Party',
		payload: { title: 'Launch', starts_at: '2030-05-01T18:00:00Z' },
	},
];
/** A row as a sheet holds it: one column per payload field. */
const flat = ({ payload, ...row }) => ({
	...row,
	...payload,
	...(payload.links ? { links: JSON.stringify(payload.links) } : {}),
});
const items = (rows) => rows.map((json) => ({ json }));
/** The codes the sandbox stored whose names start with `prefix`, by name. */
async function storedCodes(prefix) {
	const codes = (await ctx.allCodes()).filter(
		(code) => !code.deleted && code.name.startsWith(prefix),
	);
	return Object.fromEntries(codes.map((code) => [code.name.slice(prefix.length), code]));
}
const mixedFields = (names) =>
	Object.fromEntries(names.map((name) => [`mixedPayload_${name}`, `={{ $json.${name} }}`]));
/** Version 2's Payload Fields, each mapped to the row's column of the same name. */
const payloadFields = (names) =>
	Object.fromEntries(names.map((name) => [name, `={{ $json.${name} }}`]));
const ALL_KEYS = ['url', 'phone', 'message', 'email', 'subject', 'title', 'links', 'starts_at'];

describe('QR Code › Create with the Type from the data', () => {
	test('JSON payload: one code per row, each of its own type; a second run creates nothing new', async () => {
		const parameters = {
			resource: 'qrCode',
			operation: 'create',
			name: '={{ "json-" + $json.name }}',
			type: '={{ $json.type }}',
			payloadInput: 'json',
			payloadJson: '={{ JSON.stringify($json.payload) }}',
			additionalFields: { idempotencyKey: '={{ "sheet-json-" + $json.row }}' },
		};
		const first = await ctx.run(parameters, { items: items(ROWS) });
		expect(first.issues).toBeUndefined();
		expect(first.error).toBeUndefined();
		expect(jsonOf(first.items).map((code) => code.type)).toEqual(ROWS.map((row) => row.type));
		const stored = await storedCodes('json-');
		for (const row of ROWS) expect(stored[row.name].payload).toMatchObject(row.payload);

		const again = await ctx.run(parameters, { items: items(ROWS) });
		expect(again.error).toBeUndefined();
		expect(jsonOf(again.items).map((code) => code.id)).toEqual(
			jsonOf(first.items).map((code) => code.id),
		);
		expect(Object.keys(await storedCodes('json-'))).toHaveLength(ROWS.length);
	});

	test.each([
		['version 1: one parameter per field', 1, mixedFields(ALL_KEYS)],
		['version 2: Payload Fields', 2, { mixedPayload: payloadFields(ALL_KEYS) }],
	])(
		'Fields for Mixed Types (%s): every field mapped once by name; each row sends its type’s fields',
		async (_, typeVersion, fields) => {
			const prefix = `mixed-${typeVersion}-`;
			const {
				items: out,
				error,
				issues,
			} = await ctx.run(
				{
					resource: 'qrCode',
					operation: 'create',
					name: `={{ "${prefix}" + $json.name }}`,
					type: '={{ $json.type }}',
					payloadInput: 'mixed',
					...fields,
				},
				{ items: items(ROWS.map(flat)), typeVersion },
			);
			expect(issues).toBeUndefined();
			expect(error).toBeUndefined();
			expect(out).toHaveLength(ROWS.length);
			const stored = await storedCodes(prefix);
			// Exactly the row's own payload: fields of other types in the same row are not sent.
			for (const row of ROWS) expect(stored[row.name].payload).toEqual(row.payload);
		},
	);

	test('a row with an unknown type or a wrong payload fails alone, named, before any request', async () => {
		const rows = [
			ROWS[0],
			{ row: 'x1', type: 'fax', name: 'Fax', payload: { number: '1' } },
			{ row: 'x2', type: 'url', name: 'Bad URL', payload: { url: 'not a link' } },
			{
				row: 'x3',
				type: 'phone',
				name: 'Extra',
				payload: { phone: '+14155550123', colour: 'red' },
			},
			{
				row: 'x4',
				type: 'Google Review',
				name: 'Label',
				payload: { place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
			},
		];
		const before = (await ctx.requests()).filter((request) => request.method === 'POST').length;
		const { items: out, error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ "bad-" + $json.name }}',
				type: '={{ $json.type }}',
				payloadInput: 'json',
				payloadJson: '={{ $json.payload }}',
			},
			{ items: items(rows), settings: continueOnFail },
		);
		expect(error).toBeUndefined();
		const results = jsonOf(out);
		expect(results[0].type).toBe('url');
		expect(results[1].error).toBe('Unknown QR code type "fax" in item 1');
		expect(results[1].description).toMatch(/^Use one of: url, whatsapp, phone, .*file\.$/);
		expect(results[2].error).toMatch(
			/^Invalid "URL" \(payload\.url\) in item 2: must be a full http or https URL/,
		);
		expect(results[3].error).toBe('Item 3 has payload.colour, which type Phone Call does not have');
		expect(results[3].description).toMatch(/takes: phone\. Nothing was sent/);
		// A label in any case names the type as well as its value.
		expect(results[4].type).toBe('google_review');
		expect(out.map((item) => item.pairedItem)).toEqual(rows.map((_, item) => ({ item })));
		const posts = (await ctx.requests()).filter((request) => request.method === 'POST').length;
		expect(posts - before).toBe(2);
	});

	test('Continue (using error output): failed rows leave on the error output with their data', async () => {
		const rows = [ROWS[0], { row: 'e1', type: 'fax', name: 'Fax', payload: {} }, ROWS[1]];
		const { runs, error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ "error-output-" + $json.name }}',
				type: '={{ $json.type }}',
				payloadInput: 'json',
				payloadJson: '={{ $json.payload }}',
			},
			{ items: items(rows), settings: { onError: 'continueErrorOutput' } },
		);
		expect(error).toBeUndefined();
		const [success, failed] = runs.at(-1).data.main;
		expect(jsonOf(success).map((code) => code.type)).toEqual(['url', 'whatsapp']);
		expect(jsonOf(failed)).toEqual([
			expect.objectContaining({
				row: 'e1',
				error: expect.stringMatching(/^Unknown QR code type "fax" in item 1\. Use one of: url, /),
			}),
		]);
		expect(failed[0].pairedItem).toEqual({ item: 1 });
	});

	test('Fields for the Type with a Type expression: each row uses what was entered for its type', async () => {
		const {
			items: out,
			error,
			issues,
		} = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ "per-type-" + $json.name }}',
				type: '={{ $json.type }}',
				payloadInput: 'fields',
				payload_url_url: '={{ $json.url }}',
				payload_whatsapp_phone: '={{ $json.phone }}',
				payload_whatsapp_message: '={{ $json.message }}',
			},
			{ items: items([ROWS[0], ROWS[1], ROWS[2]].map(flat)), settings: continueOnFail },
		);
		expect(issues).toBeUndefined();
		expect(error).toBeUndefined();
		const results = jsonOf(out);
		expect(results[0]).toMatchObject({ type: 'url', destination: 'https://example.com/shop' });
		expect(results[1]).toMatchObject({ type: 'whatsapp' });
		expect(results[2].error).toBe(
			'Missing "Email" (payload.email) in item 2: it is required for type Email',
		);
		expect(results[2].description).toMatch(
			/Type comes from an expression.*"Fields for Mixed Types"/,
		);
	});

	test('every field of Create as an expression stores the same code as literal values', async () => {
		const literal = {
			resource: 'qrCode',
			operation: 'create',
			name: 'every-field literal',
			type: 'coupon',
			payloadInput: 'fields',
			payload_coupon_title: '10% off',
			payload_coupon_description: 'Spring',
			payload_coupon_code: 'SPRING10',
			payload_coupon_expires_at: '2030-06-30',
			payload_coupon_url: 'https://example.com/coupon',
			additionalFields: {
				design: '{"foreground":"#112233"}',
				domain: `localhost:${new URL(ctx.sandbox.siteUrl).port}`,
				folder: 'Imports',
				idempotencyKey: 'every-field-literal',
				tags: 'a, b',
			},
		};
		const expression = (value) => `={{ ${JSON.stringify(value)} }}`;
		const mapped = Object.fromEntries(
			Object.entries(literal).map(([key, value]) =>
				['resource', 'operation', 'payloadInput'].includes(key)
					? [key, value]
					: [
							key,
							typeof value === 'object'
								? Object.fromEntries(Object.entries(value).map(([k, v]) => [k, expression(v)]))
								: expression(value),
						],
			),
		);
		mapped.name = expression('every-field expression');
		mapped.additionalFields.idempotencyKey = expression('every-field-expression');
		const a = await ctx.run(literal);
		const b = await ctx.run(mapped);
		expect(a.error).toBeUndefined();
		expect(b.issues).toBeUndefined();
		expect(b.error).toBeUndefined();
		const stored = await storedCodes('every-field ');
		// A coupon's destination is its own page, named by its id.
		const comparable = ({ id, name, short_url, destination, created_at, updated_at, ...rest }) =>
			rest;
		expect(comparable(stored.expression)).toEqual(comparable(stored.literal));
		expect(stored.literal).toMatchObject({ tags: ['a', 'b'], folder: 'Imports', type: 'coupon' });
	});
});

describe('QR Code › Update and Static QR Code › Generate with the Type from the data', () => {
	test.each([
		['version 1: mixed-type fields', 1, mixedFields(['phone', 'email'])],
		['version 2: Payload Fields', 2, { mixedPayload: payloadFields(['phone', 'email']) }],
	])(
		'Update re-types codes from their rows (%s, replace payload)',
		async (_, typeVersion, fields) => {
			const created = await ctx.run(
				{
					resource: 'qrCode',
					operation: 'create',
					name: `={{ "retype-${typeVersion}-" + $json.name }}`,
					type: 'url',
					payload_url_url: 'https://example.com/old',
				},
				{ items: items([{ name: 'a' }, { name: 'b' }]), typeVersion },
			);
			const [a, b] = jsonOf(created.items);
			const {
				items: out,
				error,
				issues,
			} = await ctx.run(
				{
					resource: 'qrCode',
					operation: 'update',
					qrCodeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
					payloadInput: 'mixed',
					type: '={{ $json.type }}',
					replacePayload: true,
					...fields,
				},
				{
					items: items([
						{ id: a.id, type: 'phone', phone: '+14155550199' },
						{ id: b.id, type: 'email', email: 'new@example.com' },
					]),
					typeVersion,
				},
			);
			expect(issues).toBeUndefined();
			expect(error).toBeUndefined();
			expect(jsonOf(out).map(({ type, payload }) => ({ type, payload }))).toEqual([
				{ type: 'phone', payload: { phone: '+14155550199' } },
				{ type: 'email', payload: { email: 'new@example.com' } },
			]);
		},
	);

	test('Generate makes each row’s static code; a type that needs a redirect fails alone', async () => {
		const rows = [
			{ type: 'url', payload: { url: 'https://example.com/static' } },
			{ type: 'phone', payload: { phone: '+14155550123' } },
			{ type: 'app_store', payload: { ios_url: 'https://example.com/i' } },
		];
		const {
			items: out,
			error,
			issues,
		} = await ctx.run(
			{
				resource: 'staticQrCode',
				operation: 'generate',
				type: '={{ $json.type }}',
				payloadInput: 'json',
				payloadJson: '={{ JSON.stringify($json.payload) }}',
				format: 'png',
				sizeUnit: 'pixels',
				size: 300,
				binaryPropertyName: 'data',
			},
			{ items: items(rows), settings: continueOnFail },
		);
		expect(issues).toBeUndefined();
		expect(error).toBeUndefined();
		expect(decodeQr(Buffer.from(out[0].binary.data.data, 'base64'))).toBe(
			'https://example.com/static',
		);
		expect(decodeQr(Buffer.from(out[1].binary.data.data, 'base64'))).toBe('tel:+14155550123');
		expect(out[2].json.error).toBe('Type App Store cannot be a static code (item 2)');
	});
});

describe('version 2: the mixed-type fields are one collection, and Payload (JSON) is required', () => {
	const v2 = { typeVersion: 2 };

	test('a field a row needs and that is not in Payload Fields fails that row, saying to add it', async () => {
		const before = (await ctx.requests()).length;
		const { items: out, error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ "v2-missing-" + $json.name }}',
				type: '={{ $json.type }}',
				payloadInput: 'mixed',
				mixedPayload: payloadFields(['url']),
			},
			{ items: items([ROWS[0], ROWS[1]].map(flat)), settings: continueOnFail, ...v2 },
		);
		expect(error).toBeUndefined();
		const results = jsonOf(out);
		expect(results[0].type).toBe('url');
		expect(results[1].error).toBe(
			'Missing "Phone Number" (payload.phone) in item 1: it is required for type WhatsApp',
		);
		expect(results[1].description).toMatch(/^Add "Phone Number" to Payload Fields and map it/);
		expect((await ctx.requests()).length - before).toBe(1);
	});

	test('a Payload Fields value of the wrong kind is named with its collection, before any request', async () => {
		const before = (await ctx.requests()).length;
		const { error } = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: 'v2-bad-links',
				type: 'link_bio',
				payloadInput: 'mixed',
				mixedPayload: { title: 'All links', links: '={{ "not json" }}' },
			},
			v2,
		);
		expect(error.message).toMatch(
			/^Invalid "Links" \(in Payload Fields\) in item 0: got the text "not json", expected valid JSON/,
		);
		expect((await ctx.requests()).length).toBe(before);
	});

	test('an empty Payload (JSON) is a missing payload in version 2; version 1 still reads it as {}', async () => {
		const parameters = {
			resource: 'qrCode',
			operation: 'create',
			name: 'v2-empty-json',
			type: 'url',
			payloadInput: 'json',
			payloadJson: '',
		};
		const before = (await ctx.requests()).length;
		// n8n's pre-run check does not look at required JSON fields (the editor marks it required).
		const latest = await ctx.run(parameters, v2);
		expect(latest.issues).toBeUndefined();
		expect(latest.error.message).toBe('Missing "Payload (JSON)" in item 0: it is required');
		const first = await ctx.run(parameters);
		expect(first.error.message).toBe(
			'Missing "URL" (payload.url) in item 0: it is required for type URL',
		);
		expect((await ctx.requests()).length).toBe(before);
	});
});
