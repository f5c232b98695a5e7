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
