'use strict';
/**
 * The action node against the sandbox answering other readings of what the API reference leaves
 * "not shown" about records: the alphabet of ids, the shape of the scans per day, where the
 * create answer of a webhook endpoint puts its secret, and how `since` on leads is read. Every
 * operation a reading touches runs through n8n-core's engine (and n8n's own pre-run check).
 */
const { useSandbox, decodeQr, jsonOf } = require('../support/action-sandbox');
const { n8nPreRunCheck, ourNodeDescriptions } = require('../support/parameter-issues');

const ctx = useSandbox();
const byId = (value) => ({ __rl: true, mode: 'id', value });
const byUrl = (segment, id) => ({
	__rl: true,
	mode: 'url',
	value: `https://qr.example.com/${segment}/${id}`,
});
const qrCode = (operation, extra = {}) => ({ resource: 'qrCode', operation, ...extra });

/** Switches the sandbox to these readings for the tests of one describe block. */
function withReadings(...names) {
	beforeAll(() => ctx.control('PUT', '/readings', { names }));
	afterAll(() => ctx.control('PUT', '/readings', { names: [] }));
}

async function createUrlCode(name) {
	const { items, error } = await ctx.run(
		qrCode('create', { name, type: 'url', payload_url_url: 'https://example.com/a' }),
	);
	expect(error).toBeUndefined();
	return items[0].json;
}

/** Runs an operation and checks that it ran (n8n's pre-run check passed) without error. */
async function runOk(parameters) {
	const result = await ctx.run(parameters);
	expect(result.issues).toBeUndefined();
	expect(result.error).toBeUndefined();
	return result.items;
}

afterAll(() => ctx.expectNoKeyLeak());

describe('url-safe-ids: 12-character ids of [A-Za-z0-9_-]', () => {
	withReadings('url-safe-ids');
	let code;

	beforeAll(async () => {
		code = await createUrlCode('Url-safe');
	});

	test('the sandbox gives new codes ids with "-" and "_"', () => {
		expect(code.id).toMatch(/^[A-Za-z0-9_-]{12}$/);
		expect(code.id).toMatch(/-/);
		expect(code.id).toMatch(/_/);
	});

	test('Get by ID and by dashboard URL', async () => {
		const [viaId] = await runOk(qrCode('get', { qrCodeId: byId(code.id) }));
		expect(viaId.json).toMatchObject({ id: code.id, name: 'Url-safe' });
		const [viaUrl] = await runOk(
			qrCode('get', { qrCodeId: byUrl('qr-codes', code.id), simplify: false }),
		);
		expect(viaUrl.json).toMatchObject({ id: code.id, payload: { url: 'https://example.com/a' } });
	});

	test('Update, Pause, Resume and Get Scan Statistics by URL', async () => {
		const [updated] = await runOk(
			qrCode('update', { qrCodeId: byUrl('qr-codes', code.id), updateFields: { name: 'Renamed' } }),
		);
		expect(updated.json).toMatchObject({ id: code.id, name: 'Renamed' });
		const [paused] = await runOk(qrCode('pause', { qrCodeId: byUrl('qr-codes', code.id) }));
		expect(paused.json).toMatchObject({ id: code.id, paused: true });
		const [resumed] = await runOk(qrCode('resume', { qrCodeId: byId(code.id) }));
		expect(resumed.json).toMatchObject({ id: code.id, paused: false });
		const [stats] = await runOk(qrCode('getScans', { qrCodeId: byId(code.id) }));
		expect(stats.json).toMatchObject({ qr_code_id: code.id, total: 0 });
	});

	test('Download Image by ID and by URL', async () => {
		for (const qrCodeId of [byId(code.id), byUrl('qr-codes', code.id)]) {
			const [image] = await runOk(
				qrCode('downloadImage', { qrCodeId, format: 'svg', sizeUnit: 'pixels', size: 256 }),
			);
			expect(image.json).toMatchObject({ id: code.id });
			expect(image.binary.data).toMatchObject({ fileName: `qr-${code.id}.svg` });
		}
	});

	test('Delete by ID', async () => {
		const doomed = await createUrlCode('Doomed');
		const [deleted] = await runOk(qrCode('delete', { qrCodeId: byId(doomed.id) }));
		expect(deleted.json).toEqual({ deleted: true });
		expect((await ctx.allCodes()).find((c) => c.id === doomed.id).deleted).toBe(true);
	});

	test('an ID with a character outside the alphabet is still refused before any request', async () => {
		const before = (await ctx.requests()).length;
		// An expression skips n8n's check of the field; the node checks the value itself.
		const { error } = await ctx.run(qrCode('get', { qrCodeId: byId('={{ "a1b2c3d4e5f!" }}') }));
		expect(error.message).toMatch(/Invalid ID/);
		expect(error.message).toMatch(/"-" and "_" count too/);
		expect((await ctx.requests()).length).toBe(before);
	});

	describe("n8n's pre-run check takes url-safe ids By ID and By URL", () => {
		const node = ourNodeDescriptions()['Dynamic QR'];
		const id = '-a1_B2c3D4e_';
		test.each([
			['QR code by ID', { resource: 'qrCode', operation: 'get', qrCodeId: byId(id) }],
			['QR code by URL', { resource: 'qrCode', operation: 'get', qrCodeId: byUrl('qr-codes', id) }],
			['card by ID', { resource: 'card', operation: 'get', cardId: byId(id) }],
			['card by URL', { resource: 'card', operation: 'get', cardId: byUrl('cards', id) }],
			[
				'webhook endpoint by ID',
				{ resource: 'webhookEndpoint', operation: 'delete', webhookEndpointId: byId(id) },
			],
		])('%s', (_label, parameters) => {
			expect(n8nPreRunCheck(node, parameters).issues).toBeNull();
		});

		test('and still refuses a malformed one', () => {
			const parameters = { resource: 'qrCode', operation: 'get', qrCodeId: byId('a1b2c3d4e5f6!') };
			expect(n8nPreRunCheck(node, parameters).issues).not.toBeNull();
		});
	});
});

const today = new Date().toISOString().slice(0, 10);

describe.each([
	['scans-days-map', (days) => expect(days[today]).toBe(2)],
	['scans-days-count', (days) => expect(days.at(-1)).toEqual({ date: today, count: 2 })],
])('%s: Get Scan Statistics', (reading, checkShape) => {
	withReadings(reading);
	let code;

	beforeAll(async () => {
		code = await createUrlCode(`Scanned under ${reading}`);
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'FR' });
	});

	test('Statistics: one item with the answer as the service gave it', async () => {
		const [stats] = await runOk(qrCode('getScans', { qrCodeId: byId(code.id), to: today }));
		expect(stats.json).toMatchObject({ qr_code_id: code.id, total: 2 });
		checkShape(stats.json.days);
	});

	test('One Item per Day: { qr_code_id, date, scans } for every day, oldest first', async () => {
		const items = await runOk(
			qrCode('getScans', { qrCodeId: byId(code.id), output: 'days', to: today }),
		);
		const days = jsonOf(items);
		expect(days).toHaveLength(30);
		expect(days.at(-1)).toEqual({ qr_code_id: code.id, date: today, scans: 2 });
		expect(days.every((day) => typeof day.scans === 'number')).toBe(true);
		expect(days.map((day) => day.date)).toEqual([...days.map((day) => day.date)].sort());
	});
});

describe('scans-per-day: the scans per day under `per_day`', () => {
	withReadings('scans-per-day');

	test('One Item per Day reads them; Get Scan Report counts them', async () => {
		const code = await createUrlCode('Scanned under scans-per-day');
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		const days = jsonOf(
			await runOk(qrCode('getScans', { qrCodeId: byId(code.id), output: 'days', to: today })),
		);
		expect(days).toHaveLength(30);
		expect(days.at(-1)).toEqual({ qr_code_id: code.id, date: today, scans: 1 });
	});
});

describe('scans-days-timeline: scans per day under a name no reading knows', () => {
	withReadings('scans-days-timeline');

	test('One Item per Day ends the item naming what arrived and what was expected; Statistics passes the answer on', async () => {
		const code = await createUrlCode('Scanned under scans-days-timeline');
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		const { items, error } = await ctx.run(
			qrCode('getScans', { qrCodeId: byId(code.id), output: 'days', to: today }),
		);
		expect(items ?? []).toEqual([]);
		expect(error.message).toMatch(
			/scan statistics in a shape this node cannot read: \{ from, to, total, breakdowns, timeline \}/,
		);
		expect(error.description).toMatch(/scans per day under "days" or "per_day"/);
		const [stats] = await runOk(qrCode('getScans', { qrCodeId: byId(code.id), to: today }));
		expect(stats.json.timeline).toHaveLength(30);
	});
});

describe('list-items-key: list answers with their records under `items`', () => {
	withReadings('list-items-key');

	test('Get Many ends with an error naming the answer, never an empty list', async () => {
		const { items, error } = await ctx.run(qrCode('getAll', { returnAll: true }));
		expect(items ?? []).toEqual([]);
		expect(error.message).toMatch(
			/the list \/qr-codes in a shape this node cannot read: \{ items, links, meta \}/,
		);
		expect(error.description).toMatch(/records in a list/);
	});
});

describe('static-image-json: a static code answered as JSON with the file in base64', () => {
	withReadings('static-image-json');

	test.each([
		['png', (file) => decodeQr(file) === 'https://example.com/json'],
		['svg', (file) => file.toString('utf8').includes('<svg')],
	])('Generate as %s: the item holds the file itself', async (format, isFile) => {
		const [item] = await runOk({
			resource: 'staticQrCode',
			operation: 'generate',
			type: 'url',
			payload_url_url: 'https://example.com/json',
			format,
			sizeUnit: 'pixels',
			size: 256,
		});
		const file = Buffer.from(item.binary.data.data, 'base64');
		expect(file.subarray(0, 1).toString()).not.toBe('{');
		expect(isFile(file)).toBe(true);
	});
});

describe('image-format-ignored: a PNG whatever format is asked for', () => {
	withReadings('image-format-ignored');

	test('Download Image as SVG ends the item naming what arrived; as PNG it is the file', async () => {
		const code = await createUrlCode('Format ignored');
		const download = (format) =>
			ctx.run(qrCode('downloadImage', { qrCodeId: byId(code.id), format, size: 256 }));
		const svg = await download('svg');
		expect(svg.items ?? []).toEqual([]);
		expect(svg.error.message).toMatch(
			/the SVG image in a shape this node cannot read: image\/png, \d+ bytes beginning "\.PNG/,
		);
		const png = await download('png');
		expect(png.error).toBeUndefined();
		expect(png.items[0].binary.data.mimeType).toBe('image/png');
	});
});

describe.each(['secret-top-level', 'secret-named-signing-secret'])(
	'%s: Webhook Endpoint › Create',
	(reading) => {
		withReadings(reading);

		test('Include Signing Secret off: no whsec_ value anywhere in the output', async () => {
			const items = await runOk({
				resource: 'webhookEndpoint',
				operation: 'create',
				url: `https://example.com/${reading}-hidden`,
				events: ['scan.created'],
			});
			expect(items[0].json).toMatchObject({ url: `https://example.com/${reading}-hidden` });
			expect(items[0].json.secret).toMatch(/hidden/);
			expect(JSON.stringify(items)).not.toMatch(/whsec_/);
		});

		test('Include Signing Secret on: the secret is output as `secret`', async () => {
			const items = await runOk({
				resource: 'webhookEndpoint',
				operation: 'create',
				url: `https://example.com/${reading}-shown`,
				events: ['scan.created'],
				includeSecret: true,
			});
			expect(items[0].json.secret).toMatch(/^whsec_[A-Za-z0-9+/=]+$/);
		});
	},
);

// The node keeps the form of `since` a service took: each block refuses the form the block before
// it taught, so every one goes through the fallback. With errors-as-list or error-object, the
// refusal is recognised by the field it names, whatever the shape of the error body.
describe.each([
	[['since-date-only']],
	[['since-unix-seconds']],
	[['since-date-only', 'errors-as-list']],
	[['since-unix-seconds', 'error-object']],
	[['since-ignored']],
])('%j: Lead › Get Many with Since', (readings) => {
	const reading = readings.join(' + ');
	withReadings(...readings);
	let ann;
	let bob;
	let cara;

	beforeAll(async () => {
		const add = async (name) => (await ctx.control('POST', '/leads', { name })).data;
		ann = await add(`Ann ${reading}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
		bob = await add(`Bob ${reading}`);
		await new Promise((resolve) => setTimeout(resolve, 20));
		cara = await add(`Cara ${reading}`);
	});

	const getMany = (extra) =>
		runOk({
			resource: 'lead',
			operation: 'getAll',
			cardId: byId(ctx.sandbox.cardId),
			filters: { since: ann.created_at },
			...extra,
		});

	test('Return All gives only the leads after Since, newest first', async () => {
		const items = await getMany({ returnAll: true });
		expect(jsonOf(items).map((lead) => lead.id)).toEqual([cara.id, bob.id]);
	});

	test('a Limit gives the newest leads after Since, and no more', async () => {
		const newest = await getMany({ returnAll: false, limit: 1 });
		expect(jsonOf(newest).map((lead) => lead.id)).toEqual([cara.id]);
		const roomy = await getMany({ returnAll: false, limit: 5 });
		expect(jsonOf(roomy).map((lead) => lead.id)).toEqual([cara.id, bob.id]);
	});
});

describe('a service that refuses every form of since', () => {
	// Together these two refuse a time, a date and Unix seconds alike.
	withReadings('since-date-only', 'since-unix-seconds');

	test('Lead › Get Many with Since fails naming the answer and what to do', async () => {
		const { error } = await ctx.run({
			resource: 'lead',
			operation: 'getAll',
			cardId: byId(ctx.sandbox.cardId),
			returnAll: true,
			filters: { since: '2030-05-01T18:00:00Z' },
		});
		expect(error.message).toMatch(/refused "since" as an ISO 8601 time, as a date and as Unix/);
		expect(error.message).toMatch(/since/);
		expect(error.message).toMatch(/422/);
		expect(error.description).toMatch(/remove the Since filter/);
	});
});
