'use strict';

const { useSandbox, decodeQr, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();
const byId = (value) => ({ __rl: true, mode: 'id', value });
const qrCode = (operation, extra = {}) => ({ resource: 'qrCode', operation, ...extra });

async function createUrlCode(name = 'Flyer', url = 'https://example.com/a') {
	const { items, error } = await ctx.run(
		qrCode('create', { name, type: 'url', payload_url_url: url }),
	);
	expect(error).toBeUndefined();
	return items[0].json;
}

afterAll(() => ctx.expectNoKeyLeak());

describe('Account', () => {
	test('Get answers the account, plan and limits', async () => {
		const { items, error } = await ctx.run({ resource: 'account', operation: 'get' });
		expect(error).toBeUndefined();
		expect(items).toHaveLength(1);
		expect(items[0].json.plan).toMatchObject({ name: 'Pro', api_access: true });
		expect(items[0].pairedItem).toEqual({ item: 0 });
	});

	test('a base URL with a trailing slash works; one without /api/v1 fails before any request', async () => {
		const ok = await ctx.run(
			{ resource: 'account', operation: 'get' },
			{ credentials: ctx.credentials('readWrite', `${ctx.sandbox.baseUrl}/`) },
		);
		expect(ok.error).toBeUndefined();
		const before = (await ctx.requests()).length;
		const bad = await ctx.run(
			{ resource: 'account', operation: 'get' },
			{ credentials: ctx.credentials('readWrite', ctx.sandbox.siteUrl) },
		);
		expect(bad.error.message).toMatch(/Base URL .* is not an API root/);
		expect(bad.error.description).toMatch(/ending in \/api\/v1/);
		expect((await ctx.requests()).length).toBe(before);
	});
});

describe('QR Code', () => {
	test('Create sends every field and outputs the record unwrapped from data', async () => {
		const { items, error } = await ctx.run(
			qrCode('create', {
				name: 'Spring flyer',
				type: 'whatsapp',
				payload_whatsapp_phone: '+14155550123',
				payload_whatsapp_message: 'Hello',
				additionalFields: {
					folder: 'Flyers',
					tags: 'spring, print',
					design: '{"foreground":"#000000"}',
				},
			}),
		);
		expect(error).toBeUndefined();
		const code = items[0].json;
		expect(code).toMatchObject({
			object: 'qr_code',
			name: 'Spring flyer',
			type: 'whatsapp',
			payload: { phone: '+14155550123', message: 'Hello' },
			folder: 'Flyers',
			tags: ['spring', 'print'],
		});
		expect(code.id).toMatch(/^[A-Za-z0-9]{12}$/);
		expect(code.design).toBeDefined();
		const post = (await ctx.requests())
			.filter((r) => r.method === 'POST' && r.status === 201)
			.pop();
		expect(post.idempotency_key).toMatch(/^n8n-[0-9a-f]{40}$/);
	});

	test('Create takes a link_bio list of links, a JSON payload, and a user-set Idempotency Key', async () => {
		const bio = await ctx.run(
			qrCode('create', {
				name: 'Bio',
				type: 'link_bio',
				payload_link_bio_title: 'Our links',
				payload_link_bio_links: {
					link: [
						{ title: 'Shop', url: 'https://example.com/shop' },
						{ title: 'Blog', url: 'https://example.com/blog' },
					],
				},
			}),
		);
		expect(bio.error).toBeUndefined();
		expect(bio.items[0].json.payload.links).toEqual([
			{ title: 'Shop', url: 'https://example.com/shop' },
			{ title: 'Blog', url: 'https://example.com/blog' },
		]);

		const params = qrCode('create', {
			name: 'Event',
			type: 'event',
			payloadInput: 'json',
			payloadJson: '{"title":"Launch","starts_at":"2030-05-01T18:00:00Z"}',
			additionalFields: { idempotencyKey: 'row-42' },
		});
		const first = await ctx.run(params);
		const again = await ctx.run(params);
		expect(first.error).toBeUndefined();
		expect(again.items[0].json.id).toBe(first.items[0].json.id);
		const keyed = (await ctx.requests()).filter((r) => r.idempotency_key === 'row-42');
		expect(keyed).toHaveLength(2);
	});

	test('Get by ID, by dashboard URL and from a list value; Simplify keeps at most 10 fields', async () => {
		const created = await createUrlCode('Get me');
		const simple = await ctx.run(qrCode('get', { qrCodeId: byId(created.id) }));
		expect(simple.error).toBeUndefined();
		expect(Object.keys(simple.items[0].json).length).toBeLessThanOrEqual(10);
		expect(simple.items[0].json).toMatchObject({ id: created.id, name: 'Get me' });

		const raw = await ctx.run(
			qrCode('get', {
				qrCodeId: {
					__rl: true,
					mode: 'url',
					value: `https://qr.example.com/qr-codes/${created.id}`,
				},
				simplify: false,
			}),
		);
		expect(raw.error).toBeUndefined();
		expect(raw.items[0].json).toMatchObject({
			id: created.id,
			payload: { url: 'https://example.com/a' },
		});

		const fromList = await ctx.run(
			qrCode('get', { qrCodeId: { __rl: true, mode: 'list', value: created.id } }),
		);
		expect(fromList.items[0].json.id).toBe(created.id);
	});

	test('Get Many filters by search, type and archived, one item per record', async () => {
		await createUrlCode('Filter alpha');
		await createUrlCode('Filter beta');
		const { items, error } = await ctx.run(
			qrCode('getAll', {
				returnAll: true,
				filters: { search: 'filter', type: 'url', archived: false },
			}),
		);
		expect(error).toBeUndefined();
		expect(
			jsonOf(items)
				.map((code) => code.name)
				.sort(),
		).toEqual(['Filter alpha', 'Filter beta']);
		items.forEach((item) => expect(item.pairedItem).toEqual({ item: 0 }));
		const list = (await ctx.requests())
			.filter((r) => r.path === '/qr-codes' && r.method === 'GET')
			.pop();
		expect(list.query).toMatchObject({ search: 'filter', type: 'url', archived: 'false' });
	});

	test('Update merges payload fields into the current payload unless Replace Payload is on', async () => {
		const { items } = await ctx.run(
			qrCode('create', {
				name: 'Mail',
				type: 'email',
				payload_email_email: 'a@example.com',
				payload_email_subject: 'Hi',
			}),
		);
		const id = items[0].json.id;
		const merged = await ctx.run(
			qrCode('update', {
				qrCodeId: byId(id),
				updateFields: { name: 'Mail 2' },
				payloadInput: 'fields',
				type: 'email',
				payload_email_body: 'Body text',
			}),
		);
		expect(merged.error).toBeUndefined();
		expect(merged.items[0].json).toMatchObject({
			name: 'Mail 2',
			payload: { email: 'a@example.com', subject: 'Hi', body: 'Body text' },
		});

		const replaced = await ctx.run(
			qrCode('update', {
				qrCodeId: byId(id),
				payloadInput: 'fields',
				type: 'email',
				payload_email_email: 'b@example.com',
				replacePayload: true,
			}),
		);
		expect(replaced.items[0].json.payload).toEqual({ email: 'b@example.com' });

		const renamed = await ctx.run(
			qrCode('update', { qrCodeId: byId(id), updateFields: { name: 'Only name' } }),
		);
		expect(renamed.items[0].json).toMatchObject({
			name: 'Only name',
			payload: { email: 'b@example.com' },
		});
		const patch = (await ctx.requests()).filter((r) => r.method === 'PATCH').pop();
		expect(patch.status).toBe(200);
	});

	test('Pause and Resume set paused; Delete outputs { deleted: true }', async () => {
		const { id } = await createUrlCode('Lifecycle');
		const paused = await ctx.run(qrCode('pause', { qrCodeId: byId(id) }));
		expect(paused.items[0].json).toMatchObject({ id, paused: true });
		const resumed = await ctx.run(qrCode('resume', { qrCodeId: byId(id) }));
		expect(resumed.items[0].json).toMatchObject({ id, paused: false });
		const deleted = await ctx.run(qrCode('delete', { qrCodeId: byId(id) }));
		expect(deleted.error).toBeUndefined();
		expect(deleted.items).toEqual([{ json: { deleted: true }, pairedItem: { item: 0 } }]);
		const record = (await ctx.allCodes()).find((code) => code.id === id);
		expect(record.deleted).toBe(true);
	});

	test('Download Image: PNG that decodes to the short link, named qr-<id>.png, JSON keeps id and name', async () => {
		const code = await createUrlCode('Printable');
		const { items, error } = await ctx.run(
			qrCode('downloadImage', {
				qrCodeId: byId(code.id),
				format: 'png',
				sizeUnit: 'pixels',
				size: 512,
			}),
		);
		expect(error).toBeUndefined();
		const [item] = items;
		expect(item.json).toMatchObject({ id: code.id, name: 'Printable' });
		expect(item.binary.data).toMatchObject({
			mimeType: 'image/png',
			fileName: `qr-${code.id}.png`,
		});
		const png = Buffer.from(item.binary.data.data, 'base64');
		expect(decodeQr(png)).toBe(code.short_url);
	});

	test.each([
		['svg', 'image/svg+xml'],
		['pdf', 'application/pdf'],
		['eps', 'application/postscript'],
	])('Download Image as %s at mm + dpi, into a chosen binary field', async (format, mimeType) => {
		const code = await createUrlCode(`Print ${format}`);
		const { items, error } = await ctx.run(
			qrCode('downloadImage', {
				qrCodeId: byId(code.id),
				format,
				sizeUnit: 'mm',
				mm: 30,
				dpi: 600,
				binaryPropertyName: 'print',
			}),
		);
		expect(error).toBeUndefined();
		expect(items[0].binary.print).toMatchObject({ mimeType, fileName: `qr-${code.id}.${format}` });
		const image = (await ctx.requests()).filter((r) => r.path.endsWith('/image')).pop();
		expect(image.query).toMatchObject({ format, mm: '30', dpi: '600' });
	});

	test('Get Scan Statistics as returned, or one item per day', async () => {
		const code = await createUrlCode('Scanned');
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'FR' });
		const today = new Date().toISOString().slice(0, 10);
		const stats = await ctx.run(
			qrCode('getScans', { qrCodeId: byId(code.id), from: today, to: today }),
		);
		expect(stats.error).toBeUndefined();
		expect(stats.items).toHaveLength(1);
		expect(stats.items[0].json).toMatchObject({
			qr_code_id: code.id,
			total: 2,
			from: today,
			to: today,
		});
		expect(stats.items[0].json.breakdowns.country).toEqual(
			expect.arrayContaining([
				{ value: 'DE', scans: 1 },
				{ value: 'FR', scans: 1 },
			]),
		);

		const daily = await ctx.run(
			qrCode('getScans', { qrCodeId: byId(code.id), from: `${today}T00:00:00`, output: 'days' }),
		);
		expect(jsonOf(daily.items)).toContainEqual({ qr_code_id: code.id, date: today, scans: 2 });
	});
});

describe('Static QR Code', () => {
	test('Generate answers a PNG that encodes the content; nothing is saved', async () => {
		const before = (await ctx.allCodes()).length;
		const { items, error } = await ctx.run({
			resource: 'staticQrCode',
			operation: 'generate',
			type: 'url',
			payload_url_url: 'https://example.com/static',
			format: 'png',
			sizeUnit: 'pixels',
			size: 400,
		});
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ type: 'url', format: 'png' });
		expect(items[0].binary.data).toMatchObject({
			mimeType: 'image/png',
			fileName: 'qr-static-url.png',
		});
		expect(decodeQr(Buffer.from(items[0].binary.data.data, 'base64'))).toBe(
			'https://example.com/static',
		);
		expect((await ctx.allCodes()).length).toBe(before);
	});
});

describe('Logo', () => {
	test('Upload sends the input binary as multipart field "file" and answers the upload id', async () => {
		const { PNG } = require('pngjs');
		const png = new PNG({ width: 8, height: 8 });
		png.data.fill(255);
		const base64 = PNG.sync.write(png).toString('base64');
		const { items, error } = await ctx.run(
			{ resource: 'logo', operation: 'upload', binaryPropertyName: 'logo' },
			{
				items: [
					{ json: {}, binary: { logo: { base64, mimeType: 'image/png', fileName: 'logo.png' } } },
				],
			},
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({
			object: 'logo_upload',
			filename: 'logo.png',
			content_type: 'image/png',
		});

		const withLogo = await ctx.run(
			qrCode('create', {
				name: 'Logo code',
				type: 'url',
				payload_url_url: 'https://example.com',
				additionalFields: { logoUploadId: items[0].json.id },
			}),
		);
		expect(withLogo.items[0].json.design.logo_upload_id).toBe(items[0].json.id);
	});
});

describe('Card and Lead', () => {
	test('Card Get and Get Many', async () => {
		const many = await ctx.run({ resource: 'card', operation: 'getAll', returnAll: true });
		expect(many.error).toBeUndefined();
		expect(jsonOf(many.items).map((card) => card.id)).toContain(ctx.sandbox.cardId);
		const one = await ctx.run({
			resource: 'card',
			operation: 'get',
			cardId: {
				__rl: true,
				mode: 'url',
				value: `https://qr.example.com/cards/${ctx.sandbox.cardId}`,
			},
		});
		expect(one.items[0].json.id).toBe(ctx.sandbox.cardId);
	});

	test('Lead Get Many lists newest first, and only newer ones with Since', async () => {
		const first = (await ctx.control('POST', '/leads', { name: 'Ann', email: 'ann@example.com' }))
			.data;
		await new Promise((resolve) => setTimeout(resolve, 20));
		await ctx.control('POST', '/leads', { name: 'Bob', email: 'bob@example.com' });
		const all = await ctx.run({
			resource: 'lead',
			operation: 'getAll',
			cardId: byId(ctx.sandbox.cardId),
			returnAll: true,
		});
		expect(all.error).toBeUndefined();
		expect(jsonOf(all.items).map((lead) => lead.name)).toEqual(['Bob', 'Ann']);
		const newer = await ctx.run({
			resource: 'lead',
			operation: 'getAll',
			cardId: byId(ctx.sandbox.cardId),
			returnAll: true,
			filters: { since: first.created_at },
		});
		expect(jsonOf(newer.items).map((lead) => lead.name)).toEqual(['Bob']);
	});
});

describe('Webhook Endpoint', () => {
	test('Create (secret hidden unless asked), Get Many, Delete', async () => {
		const hidden = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://example.com/hook-a',
			events: ['scan.created', 'lead.created'],
		});
		expect(hidden.error).toBeUndefined();
		expect(hidden.items[0].json).toMatchObject({
			url: 'https://example.com/hook-a',
			status: 'active',
		});
		expect(hidden.items[0].json.secret).not.toMatch(/^whsec_/);

		const shown = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: 'https://example.com/hook-b',
			events: ['qr_code.created'],
			includeSecret: true,
		});
		expect(shown.items[0].json.secret).toMatch(/^whsec_/);

		const many = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
		});
		expect(
			jsonOf(many.items)
				.map((endpoint) => endpoint.url)
				.sort(),
		).toEqual(['https://example.com/hook-a', 'https://example.com/hook-b']);

		const deleted = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'delete',
			webhookEndpointId: byId(hidden.items[0].json.id),
		});
		expect(deleted.items[0].json).toEqual({ deleted: true });
		const left = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'getAll',
			returnAll: true,
		});
		expect(left.items).toHaveLength(1);
	});
});
