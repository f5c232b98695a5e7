'use strict';
/**
 * What an error answer becomes (api/errors.ts, reading the body with api/errorBody.ts and what
 * made a request too large with api/tooLarge.ts): the service's own words whatever the shape of
 * the body, and answers that retrying cannot fix never telling the user to try again.
 */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');
const { useSandbox } = require('../support/action-sandbox');

const { httpError } = require(path.join(DIST, 'nodes/DynamicQr/api/edge/errors.js'));
const { readErrorBody } = require(path.join(DIST, 'nodes/DynamicQr/api/edge/errorBody.js'));

const ctx = useSandbox();

afterAll(() => ctx.expectNoKeyLeak());

describe("error bodies in any shape keep the service's words", () => {
	const node = { name: 'Dynamic QR', type: 'n8n-nodes-dynamic-qr.dynamicQr', parameters: {} };
	const create = { method: 'POST', path: '/qr-codes' };
	const errorFor = (status, json) => httpError(node, status, create, readErrorBody(json), 0);

	test.each([
		[
			'errors as an object of lists (the reference)',
			{ message: 'The tags must be a string.', errors: { tags: ['The tags must be a string.'] } },
		],
		[
			'errors as a list of { field, message }',
			{ errors: [{ field: 'tags', message: 'The tags must be a string.' }] },
		],
		['errors as an object of texts', { errors: { tags: 'The tags must be a string.' } }],
		[
			'errors as an object of { message, code } lists',
			{ errors: { tags: [{ message: 'The tags must be a string.', code: 'invalid' }] } },
		],
		[
			'a nested error naming its param',
			{ error: { code: 'invalid', message: 'The tags must be a string.', param: 'tags' } },
		],
		['a detail list with loc', { detail: [{ loc: ['tags'], msg: 'The tags must be a string.' }] }],
	])('422 with %s names the field and says what the service said', (_, json) => {
		const error = errorFor(422, json);
		expect(error.message).toBe(
			'The API rejected the request (422): tags: The tags must be a string.',
		);
		expect(error.description).toMatch(/Check the Tags field/);
	});

	test('a 500 with { error: { code, message } } shows the message', () => {
		const error = errorFor(500, {
			error: { code: 'internal_error', message: 'The database is down.' },
		});
		expect(error.message).toBe('The Dynamic QR API answered 500: The database is down.');
	});

	test.each([
		[
			'a list of texts',
			{ errors: ['Name is too long', 'Type is unknown'] },
			'Name is too long; Type is unknown',
		],
		['a bare text', 'Service unavailable', 'Service unavailable'],
		[
			'an error text',
			{ error: 'invalid_request', error_description: 'The name is missing.' },
			'The name is missing.',
		],
		[
			'a nested field map',
			{ errors: { payload: { url: ['must be a URL'] } } },
			'payload.url: must be a URL',
		],
		[
			'an object without words',
			{ errors: [{ reason: { kind: 'odd' } }] },
			'{"reason":{"kind":"odd"}}',
		],
		['a code alone', { error: { code: 'name_taken' } }, 'name_taken'],
	])('400 with %s shows its words', (_, json, words) => {
		expect(errorFor(400, json).message).toBe(`The API could not read the request (400): ${words}`);
	});

	test('no shape shows "[object Object]", and field names that are members of every object stay field names', () => {
		const shapes = [
			{ errors: { name: { too: { deep: [{ x: 1 }] } } } },
			{ errors: [[{ field: 'a', message: { text: 'nested' } }]] },
			{ error: { error: { error: { message: 'deep' } } } },
			{ message: { text: 'not a string' } },
			JSON.parse('{"errors": {"constructor": ["bad"], "__proto__": ["worse"]}}'),
			[{ field: 'toString', message: 'odd' }],
		];
		for (const json of shapes) {
			for (const status of [400, 409, 422, 500]) {
				const error = errorFor(status, json);
				expect(`${error.message} ${error.description}`).not.toMatch(/\[object Object\]/);
			}
		}
		expect(errorFor(422, shapes[4]).message).toBe(
			'The API rejected the request (422): constructor: bad | __proto__: worse',
		);
	});

	test('410 names the record as deleted', () => {
		const error = httpError(node, 410, { method: 'GET', path: '/qr-codes/AAAAAAAAAAAA' }, {}, 0);
		expect(error.message).toBe('The QR code "AAAAAAAAAAAA" was deleted (410)');
	});

	test('404 and 410 on /uploads/logos name a logo upload', () => {
		const upload = { method: 'POST', path: '/uploads/logos' };
		expect(httpError(node, 404, upload, {}, 0).message).toBe(
			'The logo upload was not found in this workspace (404)',
		);
		expect(httpError(node, 410, upload, {}, 0).message).toBe('The logo upload was deleted (410)');
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
