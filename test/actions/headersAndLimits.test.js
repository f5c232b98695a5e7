'use strict';
/**
 * What reaches the service's headers and multipart parts from data: the Idempotency-Key
 * unchanged in meaning (encoded when a header cannot carry it), and no CR/LF from a logo's MIME
 * type. Also the Request Options reader the router calls. (The multipart body itself is tested
 * in test/api/multipart.test.js, answers about size in test/api/errors.test.js.)
 */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');
const { useSandbox } = require('../support/action-sandbox');

const { headerSafeKey } = require(path.join(DIST, 'nodes/DynamicQr/api/headerText.js'));
const { readRequestOptions } = require(
	path.join(DIST, 'nodes/DynamicQr/actions/operationParameters.js'),
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

describe('Request Options', () => {
	const contextWith = (requestOptions) => ({
		getNode: () => ({ name: 'Dynamic QR', type: 'dynamicQr', typeVersion: 1, parameters: {} }),
		getNodeParameter: (name, _itemIndex, fallback) =>
			name === 'requestOptions' ? requestOptions : fallback,
	});

	test('read by their declared types', () => {
		expect(readRequestOptions(contextWith({}))).toEqual({
			concurrency: undefined,
			maxWaitSeconds: 300,
		});
		expect(readRequestOptions(contextWith({ concurrency: ' 5 ', maxRateLimitWait: '60' }))).toEqual(
			{ concurrency: 5, maxWaitSeconds: 60 },
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
