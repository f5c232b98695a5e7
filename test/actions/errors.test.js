'use strict';

const { useSandbox } = require('../support/action-sandbox');

const ctx = useSandbox();
const byId = (value) => ({ __rl: true, mode: 'id', value });
const create = (extra) => ({
	resource: 'qrCode',
	operation: 'create',
	name: 'Code',
	type: 'url',
	...extra,
});

afterAll(() => ctx.expectNoKeyLeak());

describe('validation fails before any request, naming the field and the item', () => {
	test.each([
		// Empty expressions: n8n itself refuses a required field left empty in the editor.
		[
			'a missing required field',
			create({ payload_url_url: '={{ $json.missing }}' }),
			/Missing "URL" \(payload\.url\) in item 0/,
		],
		[
			'a malformed URL',
			create({ payload_url_url: 'example dot com' }),
			/Invalid "URL" \(payload\.url\) in item 0: must be a full http or https URL/,
		],
		[
			'a malformed email',
			create({ type: 'email', payload_email_email: 'not-an-address' }),
			/Invalid "Email" \(payload\.email\) in item 0: must be an email address/,
		],
		[
			'a malformed phone number',
			create({ type: 'sms', payload_sms_phone: 'call me' }),
			/Invalid "Phone Number" \(payload\.phone\) in item 0: must be a phone number/,
		],
		[
			'a link without URL in a link_bio list',
			create({
				type: 'link_bio',
				payload_link_bio_title: 'Links',
				payload_link_bio_links: { link: [{ title: 'Shop', url: '' }] },
			}),
			/Invalid "Links" \(payload\.links\) in item 0: link 1: URL must be a full http or https URL/,
		],
		[
			'a JSON payload missing a required field',
			create({ type: 'coupon', payloadInput: 'json', payloadJson: '{"title":"Sale"}' }),
			/Missing "Coupon Code" \(payload\.code\) in item 0/,
		],
		[
			'an ID that is not 12 characters',
			{ resource: 'qrCode', operation: 'get', qrCodeId: byId('={{ "abc" }}') },
			/Invalid ID "abc" in item 0: an ID has 12 letters and digits/,
		],
		[
			'a static File code without its URL',
			{
				resource: 'staticQrCode',
				operation: 'generate',
				type: 'file',
				payload_file_title: 'Brochure',
				payload_file_file_url: '={{ $json.missing }}',
			},
			/Missing "File URL" \(payload\.file_url\) in item 0/,
		],
	])('%s', async (_, parameters, message) => {
		const before = (await ctx.requests()).length;
		const { error, items } = await ctx.run(parameters);
		expect(items).toEqual([]);
		expect(error.name).toBe('NodeOperationError');
		expect(error.message).toMatch(message);
		expect(error.context.itemIndex).toBe(0);
		expect((await ctx.requests()).length).toBe(before);
	});

	test('the item named is the failing one', async () => {
		const before = (await ctx.requests()).length;
		const { error } = await ctx.run(create({ payload_url_url: '={{ $json.url }}' }), {
			items: [{ json: { url: 'https://example.com/ok' } }, { json: { url: 'nope' } }],
		});
		expect(error.message).toMatch(/Invalid "URL" \(payload\.url\) in item 1/);
		// Item 0 was valid and went out; item 1 did not.
		expect((await ctx.requests()).length).toBe(before + 1);
	});
});

describe('API errors say what happened and how to fix it', () => {
	test('401: a revoked key', async () => {
		const { error } = await ctx.run({ resource: 'account', operation: 'get' }, { key: 'revoked' });
		expect(error.name).toBe('NodeApiError');
		expect(error.httpCode).toBe('401');
		expect(error.message).toBe('The Dynamic QR API refused the API key (401)');
		expect(error.description).toMatch(/Create a new key in the developer settings/);
	});

	test('403: a read-only key used to write', async () => {
		const { error } = await ctx.run(create({ payload_url_url: 'https://example.com' }), {
			key: 'readOnly',
		});
		expect(error.httpCode).toBe('403');
		expect(error.message).toBe('The API key is read-only and cannot POST /qr-codes (403)');
		expect(error.description).toMatch(/needs a read-write key/);
	});

	test('403: a plan without API access', async () => {
		const { error } = await ctx.run({ resource: 'account', operation: 'get' }, { key: 'noApi' });
		expect(error.httpCode).toBe('403');
		expect(error.message).toBe("The workspace's plan has no API access (403)");
		expect(error.description).toMatch(/Move the workspace to a plan with API access/);
	});

	test('404: an unknown code', async () => {
		const { error } = await ctx.run({
			resource: 'qrCode',
			operation: 'get',
			qrCodeId: byId('AAAAAAAAAAAA'),
		});
		expect(error.httpCode).toBe('404');
		expect(error.message).toBe('The QR code "AAAAAAAAAAAA" was not found in this workspace (404)');
		expect(error.description).toMatch(/Check the ID/);
	});

	test('422: a Pro type on a plan without smart redirects', async () => {
		const { error } = await ctx.run(
			create({
				type: 'menu',
				payload_menu_title: 'Menu',
				payload_menu_menu_url: 'https://example.com/m.pdf',
			}),
			{ key: 'noSmartRedirects' },
		);
		expect(error.httpCode).toBe('422');
		expect(error.message).toMatch(
			/^The API rejected the request \(422\): type: Type menu needs a plan with smart redirects/,
		);
		expect(error.description).toMatch(
			/needs a plan with smart redirects \(Pro\)\. Upgrade the plan/,
		);
	});

	test('422: the fields the API rejected are listed', async () => {
		const { error } = await ctx.run(
			create({
				payload_url_url: 'https://example.com',
				additionalFields: { domain: 'evil.example' },
			}),
		);
		expect(error.httpCode).toBe('422');
		expect(error.message).toMatch(/^The API rejected the request \(422\): domain: /);
		expect(error.description).toMatch(/^Fix the rejected fields: domain: /);
	});
});

describe("error bodies in any shape keep the service's words", () => {
	const path = require('node:path');
	const { DIST } = require('../engine/n8n-core');
	const { httpError } = require(path.join(DIST, 'nodes/DynamicQr/api/errors.js'));
	const { readErrorBody } = require(path.join(DIST, 'nodes/DynamicQr/api/errorBody.js'));
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
});

describe('an unreachable service', () => {
	test('a read is retried, then fails with a clear error that names the request', async () => {
		const closedPort = 'http://127.0.0.1:9/api/v1'; // the discard port: nothing listens on loopback
		const { error } = await ctx.run(
			{ resource: 'account', operation: 'get' },
			{ credentials: { ...ctx.credentials(), baseUrl: closedPort } },
		);
		expect(error.message).toBe('The connection to the Dynamic QR API failed during GET /me');
		expect(error.description).toMatch(
			/^Network error ECONNREFUSED. Check the Base URL in the credential/,
		);
	});

	test('a base URL that is not the API root is refused before any request', async () => {
		const before = (await ctx.requests()).length;
		const { error } = await ctx.run(
			{ resource: 'account', operation: 'get' },
			{ credentials: { ...ctx.credentials(), baseUrl: ctx.sandbox.siteUrl } },
		);
		expect(error.message).toMatch(
			/Base URL ".*" of the Dynamic QR API credential is not an API root/,
		);
		expect(error.description).toMatch(/ending in \/api\/v1/);
		expect((await ctx.requests()).length).toBe(before);
	});
});

describe('Continue On Fail', () => {
	test('an error goes on its item, paired to its input; the other items go on', async () => {
		const { error, items } = await ctx.run(
			{ resource: 'qrCode', operation: 'get', qrCodeId: byId('={{ $json.id }}') },
			{
				items: [{ json: { id: 'AAAAAAAAAAAA' } }, { json: { id: 'short' } }],
				settings: { onError: 'continueRegularOutput' },
			},
		);
		expect(error).toBeUndefined();
		expect(items).toHaveLength(2);
		expect(items[0]).toMatchObject({
			json: { error: 'The QR code "AAAAAAAAAAAA" was not found in this workspace (404)' },
			pairedItem: { item: 0 },
		});
		expect(items[1].json.error).toMatch(/Invalid ID "short" in item 1/);
		expect(items[1].pairedItem).toEqual({ item: 1 });
	});
});
