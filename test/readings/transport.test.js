'use strict';

// The HTTP client against readings of what the reference leaves open about transport: 5xx and
// 429 with Retry-After (seconds or HTTP date), HTML error pages from a proxy, a 409 for an
// Idempotency-Key still being processed, and image downloads redirected to a CDN.

const { useSandbox, decodeQr } = require('../support/action-sandbox');

const ctx = useSandbox();
const byId = (value) => ({ __rl: true, mode: 'id', value });
const qrCode = (operation, extra = {}) => ({ resource: 'qrCode', operation, ...extra });
const MAX_WAIT_SECONDS = 10;
const withMaxWait = (parameters, seconds = MAX_WAIT_SECONDS) => ({
	...parameters,
	requestOptions: { maxRateLimitWait: seconds },
});

const useReading = (name) => ctx.control('PUT', '/readings', { names: name ? [name] : [] });

async function createUrlCode(name) {
	await useReading(null);
	const { items, error } = await ctx.run(
		qrCode('create', { name, type: 'url', payload_url_url: 'https://example.com/transport' }),
	);
	expect(error).toBeUndefined();
	return items[0].json;
}

/** Runs the node and answers its result, how long it took and the API requests it made. */
async function timedRun(parameters) {
	const before = (await ctx.requests()).length;
	const started = Date.now();
	const result = await ctx.run(parameters);
	const seconds = (Date.now() - started) / 1000;
	const requests = (await ctx.requests()).slice(before);
	return { ...result, seconds, requests };
}

afterEach(() => useReading(null));
afterAll(() => ctx.expectNoKeyLeak());

describe.each([
	['retry-after-503', [503]],
	['retry-after-http-date', [503, 429]],
])('%s: safe requests wait out Retry-After within Max Rate Limit Wait', (reading, waited) => {
	let code;
	beforeAll(async () => {
		code = await createUrlCode(`Waited ${reading}`);
		await ctx.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		const endpoint = await ctx.run({
			resource: 'webhookEndpoint',
			operation: 'create',
			url: `https://example.com/hook-${reading}`,
			events: ['scan.created'],
		});
		expect(endpoint.error).toBeUndefined();
	});

	const operations = () => [
		['QR Code › Get', qrCode('get', { qrCodeId: byId(code.id) }), `/qr-codes/${code.id}`],
		['QR Code › Get Many', qrCode('getAll', { returnAll: true }), '/qr-codes'],
		[
			'QR Code › Download Image',
			qrCode('downloadImage', { qrCodeId: byId(code.id), format: 'png' }),
			`/qr-codes/${code.id}/image`,
		],
		[
			'QR Code › Get Scan Statistics',
			qrCode('getScans', { qrCodeId: byId(code.id) }),
			`/qr-codes/${code.id}/scans`,
		],
		[
			'QR Code › Create (with key)',
			qrCode('create', {
				name: `Created under ${reading}`,
				type: 'url',
				payload_url_url: 'https://example.com/created',
			}),
			'/qr-codes',
		],
		[
			'Webhook Endpoint › Get Many',
			{ resource: 'webhookEndpoint', operation: 'getAll', returnAll: true },
			'/webhooks',
		],
	];

	test.each([0, 1, 2, 3, 4, 5])('operation %#', async (index) => {
		const [label, parameters, apiPath] = operations()[index];
		await useReading(reading);
		const { error, items, seconds, requests } = await timedRun(withMaxWait(parameters));
		expect({ label, error }).toEqual({ label, error: undefined });
		expect(items.length).toBeGreaterThan(0);
		const statuses = requests.filter((r) => r.path === apiPath).map((r) => r.status);
		expect(statuses.slice(0, waited.length)).toEqual(waited);
		expect(statuses[waited.length]).toBeLessThan(300);
		expect(seconds).toBeGreaterThanOrEqual(waited.length * 0.9);
		// Max Rate Limit Wait bounds each request's waits (Download Image reads the record first).
		const waitingPaths = new Set(requests.filter((r) => r.status >= 400).map((r) => r.path));
		expect(seconds).toBeLessThanOrEqual(MAX_WAIT_SECONDS * waitingPaths.size);
	});

	test('a Max Rate Limit Wait of 0 fails at once with an error naming the status', async () => {
		await useReading(reading);
		const { error, seconds, requests } = await timedRun(
			withMaxWait(qrCode('get', { qrCodeId: byId(code.id) }), 0),
		);
		expect(error.message).toMatch(/\b503\b/);
		expect(error.description).toMatch(/Max Rate Limit Wait/);
		expect(requests.filter((r) => r.path === `/qr-codes/${code.id}`)).toHaveLength(1);
		expect(seconds).toBeLessThan(3);
	});
});

describe('html-error-pages', () => {
	test('Update (PATCH) is sent once and fails naming 502 and HTML, without the page', async () => {
		const code = await createUrlCode('Behind a proxy');
		await useReading('html-error-pages');
		const { error, requests } = await timedRun(
			withMaxWait(qrCode('update', { qrCodeId: byId(code.id), updateFields: { name: 'New' } })),
		);
		expect(error.message).toMatch(/\b502\b/);
		expect(error.message).toMatch(/HTML/);
		for (const text of [error.message, error.description]) expect(text).not.toMatch(/<html/i);
		expect(JSON.stringify(error)).not.toMatch(/<html/i);
		expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(1);
	});

	test('a Get behind the same proxy is repeated and succeeds', async () => {
		const code = await createUrlCode('Read behind a proxy');
		await useReading('html-error-pages');
		const { error, items, requests } = await timedRun(
			withMaxWait(qrCode('get', { qrCodeId: byId(code.id) })),
		);
		expect(error).toBeUndefined();
		expect(items[0].json.id).toBe(code.id);
		expect(requests.map((r) => r.status)).toEqual([502, 200]);
	});
});

describe('idempotency-409', () => {
	test('Create is waited out and repeated with its key: the item gets the one code created', async () => {
		await useReading('idempotency-409');
		const name = 'Created while still processing';
		const { error, items, requests } = await timedRun(
			withMaxWait(
				qrCode('create', { name, type: 'url', payload_url_url: 'https://example.com/i' }),
			),
		);
		expect(error).toBeUndefined();
		expect(items[0].json).toMatchObject({ name });
		const creates = requests.filter((r) => r.method === 'POST' && r.path === '/qr-codes');
		expect(creates.map((r) => r.status)[0]).toBe(409);
		expect([200, 201]).toContain(creates[1].status);
		expect(new Set(creates.map((r) => r.idempotency_key)).size).toBe(1);
		const made = (await ctx.allCodes()).filter((c) => c.name === name && !c.deleted);
		expect(made).toHaveLength(1);
		expect(made[0].id).toBe(items[0].json.id);
	});
});

describe('image-redirect-cdn', () => {
	test('Download Image gets the PNG from the CDN, which never sees the API key', async () => {
		const code = await createUrlCode('From the CDN');
		await useReading('image-redirect-cdn');
		const { error, items, requests } = await timedRun(
			qrCode('downloadImage', { qrCodeId: byId(code.id), format: 'png' }),
		);
		expect(error).toBeUndefined();
		const images = requests.filter((r) => r.path.endsWith('/image'));
		expect(images.map((r) => r.status)).toEqual([302]);
		expect(items[0].binary.data).toMatchObject({ mimeType: 'image/png' });
		expect(decodeQr(Buffer.from(items[0].binary.data.data, 'base64'))).toBe(code.short_url);

		const cdn = await ctx.control('GET', '/cdn/requests');
		expect(cdn.data).toHaveLength(1);
		expect(cdn.data[0].url).toMatch(`/api/v1/qr-codes/${code.id}/image?format=png`);
		expect(cdn.data[0].headers.authorization).toBeUndefined();
		const seen = JSON.stringify(cdn.data);
		for (const key of Object.values(ctx.keys)) expect(seen.includes(key)).toBe(false);
	});
});
