'use strict';
/**
 * What reaches the service's headers and multipart parts from data: the Idempotency-Key
 * unchanged in meaning (encoded when a header cannot carry it), no CR/LF in a part header, and
 * answers about size that never tell the user to try again. Also the Request Options reader the
 * router is to call.
 */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');
const { useSandbox } = require('../support/action-sandbox');

const { multipartBody } = require(path.join(DIST, 'nodes/DynamicQr/api/multipart.js'));
const { httpError } = require(path.join(DIST, 'nodes/DynamicQr/api/errors.js'));
const { headerSafeKey } = require(path.join(DIST, 'nodes/DynamicQr/actions/shared/idempotency.js'));
const { readRequestOptions } = require(
	path.join(DIST, 'nodes/DynamicQr/actions/shared/parameters.js'),
);

const ctx = useSandbox();

const create = (name, idempotencyKey, items) =>
	ctx.run(
		{
			resource: 'qrCode',
			operation: 'create',
			name,
			type: 'url',
			payload_url_url: 'https://example.com/a',
			additionalFields: { idempotencyKey },
		},
		{ items },
	);

describe('Idempotency-Key', () => {
	test('keys a header cannot carry arrive distinct and the same on every attempt', async () => {
		const keys = ['注文-東京', '注文-大阪', '🍣', '🍕', 'tab\there', 'x'.repeat(300)];
		const sent = keys.map(headerSafeKey);
		expect(new Set(sent).size).toBe(keys.length);
		for (const key of sent) expect(key).toMatch(/^key-sha256-[0-9a-f]{64}$/);
		expect(keys.map(headerSafeKey)).toEqual(sent);

		const first = await create(
			'Row',
			'={{ $json.key }}',
			keys.map((key) => ({ json: { key } })),
		);
		expect(first.error).toBeUndefined();
		const ids = first.items.map((item) => item.json.id);
		expect(new Set(ids).size).toBe(keys.length);
		const arrived = (await ctx.requests())
			.filter((request) => request.method === 'POST')
			.slice(-keys.length)
			.map((request) => request.idempotency_key);
		expect(arrived).toEqual(sent);

		// A second run of the same rows answers the codes already made.
		const again = await create(
			'Row',
			'={{ $json.key }}',
			keys.map((key) => ({ json: { key } })),
		);
		expect(again.items.map((item) => item.json.id)).toEqual(ids);
	});

	test('a plain printable key travels exactly as given', async () => {
		for (const key of ['sheet-row-1', 'A b:c/d', 'n8n-0123456789abcdef0123456789abcdef01234567'])
			expect(headerSafeKey(key)).toBe(key);
		const { error } = await create('Plain', 'sheet-row-42', [{ json: {} }]);
		expect(error).toBeUndefined();
		const [last] = (await ctx.requests()).slice(-1);
		expect(last.idempotency_key).toBe('sheet-row-42');
	});

	test('a plain key that looks like an encoded one is encoded too, so the two never meet', () => {
		const encoded = headerSafeKey('注文');
		expect(headerSafeKey(encoded)).not.toBe(encoded);
	});
});

describe('multipart parts', () => {
	test('a file name cannot add a header line', () => {
		const { body } = multipartBody(
			'file',
			'logo\r\nX-Injected: 1".png',
			'image/png',
			Buffer.from('x'),
		);
		const head = body.toString('latin1').split('\r\n\r\n')[0];
		expect(head).not.toMatch(/\r\nX-Injected/);
		expect(head.split('\r\n')).toHaveLength(3);
	});

	test('a content type that is not a MIME type is refused', () => {
		expect(() =>
			multipartBody('file', 'logo.png', 'image/png\r\nX-Injected: 1', Buffer.from('x')),
		).toThrow(/Not a MIME type/);
	});

	test('Logo › Upload refuses a file whose MIME type is not a logo image, before any request', async () => {
		const before = (await ctx.requests()).length;
		const { error } = await ctx.run(
			{ resource: 'logo', operation: 'upload', binaryPropertyName: 'data' },
			{
				items: [
					{
						json: {},
						binary: {
							data: { base64: 'eA==', mimeType: 'image/png\r\nX-Injected: 1', fileName: 'a.png' },
						},
					},
				],
			},
		);
		expect(error.message).toMatch(/is not a logo image/);
		expect(error.message).not.toMatch(/\r|\n/);
		expect((await ctx.requests()).length).toBe(before);
	});
});

describe('answers that retrying cannot fix', () => {
	const node = { name: 'Dynamic QR', type: 'n8n-nodes-dynamic-qr.dynamicQr', parameters: {} };
	const upload = { method: 'POST', path: '/uploads/logos' };
	test.each([400, 404, 410, 413, 414, 422, 431])('%s never says to try again', (status) => {
		for (const body of [
			{},
			{ message: 'nope' },
			{ format: 'html' },
			{ format: 'text', message: 'x' },
		]) {
			const error = httpError(node, status, upload, body, 0);
			expect(`${error.message} ${error.description}`).not.toMatch(/try again/i);
		}
	});

	test('413 says what to make smaller', () => {
		expect(httpError(node, 413, upload, {}, 0).description).toMatch(/smaller image/);
	});

	const search = 'x'.repeat(100000);
	const listWith = (query, idempotencyKey) => ({
		method: 'GET',
		path: '/qr-codes',
		query: [...query, ['page', '1'], ['per_page', '100']],
		idempotencyKey,
	});

	test.each([414, 431])(
		'%s names the field that made the request too large, never a key it did not carry',
		(status) => {
			const error = httpError(node, status, listWith([['search', search]]), {}, 0);
			const text = `${error.message} ${error.description}`;
			expect(error.message).toMatch(/"Search" \(100,000 characters\) is too long/);
			expect(error.description).toMatch(/Shorten "Search" \(100,000 characters\) for this item/);
			expect(text).not.toMatch(/Idempotency/);
		},
	);

	test('431 on a create names the Idempotency Key when it is the largest part', () => {
		const key = 'k'.repeat(255);
		const request = { method: 'POST', path: '/qr-codes', query: [], idempotencyKey: key };
		const error = httpError(node, 431, request, {}, 0);
		expect(error.message).toMatch(/the Idempotency Key \(255 characters\) is too long/);
		expect(error.description).toMatch(/Shorten the Idempotency Key/);
		// A 414 is about the address, where the key never travels.
		expect(httpError(node, 414, request, {}, 0).message).not.toMatch(/Idempotency/);
	});

	test("parts of about the same size are all named; small ones and the node's own are not", () => {
		const both = listWith([
			['search', 'x'.repeat(6000)],
			['type', 'url'],
		]);
		const key = { ...both, idempotencyKey: 'k'.repeat(4000) };
		expect(httpError(node, 431, key, {}, 0).message).toMatch(
			/"Search" \(6,000 characters\) and the Idempotency Key \(4,000 characters\) are too long/,
		);
		expect(httpError(node, 431, both, {}, 0).message).not.toMatch(/Type|page/);
	});

	test("a request that carried none of the item's values names no field", () => {
		const error = httpError(node, 431, listWith([]), {}, 0);
		expect(error.message).toBe('The request headers are larger than the service accepts (431)');
		expect(error.description).toMatch(/check the Base URL in the credential/);
		expect(`${error.message} ${error.description}`).not.toMatch(/Idempotency|Search|"/);
	});

	test('QR Code › Get Many with a Search of 100,000 characters names Search, not the key', async () => {
		const { error } = await ctx.run({
			resource: 'qrCode',
			operation: 'getAll',
			returnAll: true,
			filters: { search },
		});
		expect(error.httpCode).toMatch(/^(414|431)$/);
		expect(error.message).toMatch(/"Search" \(100,000 characters\) is too long/);
		expect(`${error.message} ${error.description}`).not.toMatch(/Idempotency/);
	});

	test('503 still says to try again later', () => {
		const error = httpError(node, 503, { method: 'GET', path: '/qr-codes' }, {}, 0);
		expect(error.description).toMatch(/Try again later/);
	});
});

describe('Request Options', () => {
	const contextWith = (requestOptions) => ({
		getNode: () => ({ name: 'Dynamic QR', type: 'dynamicQr', typeVersion: 1, parameters: {} }),
		getNodeParameter: (name, _itemIndex, fallback) =>
			name === 'requestOptions' ? requestOptions : fallback,
	});

	test('read by their declared types', () => {
		expect(readRequestOptions(contextWith({}))).toEqual({
			concurrency: undefined,
			maxRateLimitWait: 300,
		});
		expect(readRequestOptions(contextWith({ concurrency: ' 5 ', maxRateLimitWait: '60' }))).toEqual(
			{ concurrency: 5, maxRateLimitWait: 60 },
		);
	});

	test.each([['abc'], [Number.NaN], [{}], [0], [21], [2.5], [true]])(
		'Concurrent Requests %p is an error naming the option',
		(concurrency) => {
			expect(() => readRequestOptions(contextWith({ concurrency }))).toThrow(
				/Invalid "Concurrent Requests" \(in Request Options\) in item 0/,
			);
		},
	);

	test('Max Rate Limit Wait below 0 is an error naming the option', () => {
		expect(() => readRequestOptions(contextWith({ maxRateLimitWait: -1 }))).toThrow(
			/Invalid "Max Rate Limit Wait \(Seconds\)"/,
		);
	});
});

afterAll(() => ctx.expectNoKeyLeak());
