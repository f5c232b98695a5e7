'use strict';
/**
 * The edge refuses what it cannot read (issue 42): for each file of api/edge/ that the sandbox's
 * readings do not already show refusing (images, scan statistics and lists: records.test.js), an
 * answer in a shape no known reading fits ends the item with an error naming what arrived, never
 * with an empty or wrong result. The action node runs through n8n-core's engine against a local
 * service that answers each test's odd shape, and every request it sent is kept.
 */
const http = require('node:http');
const util = require('node:util');

const { runNode } = require('../engine');

/** The credential's key, in the reference's form (`api_` and 32 letters and digits). */
const KEY = 'api_Refusals0123456789abcdefghijklmn';
const CODE_ID = 'abcdefabcdef';
const byId = (value) => ({ __rl: true, mode: 'id', value });
const json = (status, body) => ({ status, body: JSON.stringify(body), type: 'application/json' });

/** A service answering every request with `service.answer(request)`: { status, body, type, headers }. */
const service = { requests: [], results: [] };
beforeAll(async () => {
	service.server = http.createServer((req, res) => {
		let body = '';
		req.on('data', (chunk) => (body += chunk));
		req.on('end', () => {
			const request = { method: req.method, path: req.url.replace(/^\/api\/v1/, ''), body };
			service.requests.push(request);
			const { status, body: out, type, headers = {} } = service.answer(request);
			res.writeHead(status, type ? { 'content-type': type, ...headers } : headers).end(out);
		});
	});
	await new Promise((resolve) => service.server.listen(0, '127.0.0.1', resolve));
	service.baseUrl = `http://127.0.0.1:${service.server.address().port}/api/v1`;
});
afterAll(() => new Promise((resolve) => service.server.close(resolve)));

/** Runs the node once against the service answering `answer`; the requests are this run's. */
async function run(parameters, answer) {
	service.answer = answer;
	service.requests = [];
	const result = await runNode({
		parameters,
		credentials: { apiKey: KEY, baseUrl: service.baseUrl },
	});
	service.results.push(result);
	return result;
}

/** Runs the node and expects the item to end with an error and no output. */
async function refused(parameters, answer) {
	const { items, error } = await run(parameters, answer);
	expect(items).toEqual([]);
	expect(error).toBeDefined();
	return error;
}

const sent = (method) => service.requests.filter((request) => request.method === method);
const qrCode = (operation, extra = {}) => ({ resource: 'qrCode', operation, ...extra });
const createCode = (extra = {}) =>
	qrCode('create', {
		name: 'Odd',
		type: 'url',
		payload_url_url: 'https://example.com/odd',
		...extra,
	});
const createEndpoint = {
	resource: 'webhookEndpoint',
	operation: 'create',
	url: 'https://example.com/hook',
	events: ['scan.created'],
	includeSecret: true,
};

afterAll(() => {
	// Neither an output nor an error of any run holds the credential's key.
	for (const { run: ran, error } of service.results) {
		const everything = [JSON.stringify(ran), util.inspect(error, { depth: 30, showHidden: true })];
		expect(everything.join('\n')).not.toContain(KEY);
	}
});

describe('records.ts: a single-record answer without its record', () => {
	test.each([
		['the record without an id', json(201, { data: { name: 'Odd' } }), /\{ data \}/],
		['a text', { status: 201, body: 'Created', type: 'text/plain' }, /: Created$/],
		['a list', json(201, [{ name: 'Odd' }]), /\[\{"name":"Odd"\}\]/],
		['no body (204)', { status: 204 }, /: \{\}$/],
	])('QR Code › Create answered with %s is no success', async (_label, answer, arrived) => {
		const error = await refused(createCode(), () => answer);
		expect(error.message).toMatch(
			/^The service answered POST \/qr-codes in a shape this node cannot read/,
		);
		expect(error.message).toMatch(arrived);
		expect(error.description).toMatch(/Expected the record with its id/);
	});

	test('Get answered with the record under a name no reading knows is no empty item', async () => {
		const error = await refused(qrCode('get', { qrCodeId: byId(CODE_ID) }), () =>
			json(200, { qr_code: { id: CODE_ID, name: 'Odd' } }),
		);
		expect(error.message).toMatch(
			new RegExp(`GET /qr-codes/${CODE_ID} in a shape this node cannot read: \\{ qr_code \\}`),
		);
	});

	test('Pause answered 204 and read back without the record ends the item', async () => {
		const error = await refused(qrCode('pause', { qrCodeId: byId(CODE_ID) }), ({ method }) =>
			method === 'PATCH' ? { status: 204 } : json(200, { data: { paused: true } }),
		);
		expect(service.requests.map((request) => request.method)).toEqual(['PATCH', 'GET']);
		expect(error.message).toMatch(
			/GET \/qr-codes\/\w+ in a shape this node cannot read: \{ data \}/,
		);
	});
});

describe('webhooks.ts: an endpoint registered without its id or secret in any known place', () => {
	test('without an id or a secret: refused, nothing deleted', async () => {
		const error = await refused(createEndpoint, () =>
			json(201, { data: { url: 'https://example.com/hook', events: ['scan.created'] } }),
		);
		expect(error.message).toMatch(/POST \/webhooks in a shape this node cannot read: \{ data \}/);
		expect(error.description).toMatch(/its id and signing secret \(under secret, signing_secret/);
		expect(sent('DELETE')).toEqual([]);
	});

	test('with an id but no secret: refused, and the endpoint no one could verify is deleted again', async () => {
		const endpoint = { id: 'endpoint0001', url: 'https://example.com/hook', hmac: 'not-a-secret' };
		const error = await refused(createEndpoint, ({ method }) =>
			method === 'POST' ? json(201, endpoint) : { status: 204 },
		);
		expect(error.message).toMatch(
			/POST \/webhooks in a shape this node cannot read: \{ id, url, hmac \}/,
		);
		expect(error.description).toMatch(/the endpoint was deleted again/);
		expect(sent('DELETE').map((request) => request.path)).toEqual(['/webhooks/endpoint0001']);
	});
});

describe('errorBody.ts: an error body of a shape no reading knows', () => {
	test.each([
		[{ error: {} }, '{"error":{}}'],
		[{ errors: [] }, '{"errors":[]}'],
		[{ detail: [{}] }, '{"detail":[{}]}'],
		[{}, '{}'],
	])('%j still names the status and what arrived', async (body, shown) => {
		const error = await refused(createCode(), () => json(400, body));
		expect(error.message).toBe(`The API could not read the request (400): ${shown}`);
	});

	test('fields under names no reading knows are shown as they came', async () => {
		const body = { problems: [{ where: 'name', what: 'too long' }] };
		const error = await refused(createCode(), () => json(422, body));
		expect(error.message).toBe(`The API rejected the request (422): ${JSON.stringify(body)}`);
	});
});

describe('statuses.ts: a status the reference does not list', () => {
	test('418 is an error naming it, sent once: retrying cannot help', async () => {
		const error = await refused(qrCode('get', { qrCodeId: byId(CODE_ID) }), () =>
			json(418, { message: "I'm a teapot" }),
		);
		expect(error.message).toBe("The Dynamic QR API answered 418: I'm a teapot");
		expect(error.description).toMatch(/Sending the same request again will not help/);
		expect(service.requests).toHaveLength(1);
	});

	test.each([
		['302 without a Location', { status: 302, body: '' }],
		['304', { status: 304 }],
		['300 with a record', json(300, { data: { id: CODE_ID } })],
	])(
		'a redirect that cannot be followed (%s) is an error naming it, not the record',
		async (_label, answer) => {
			const error = await refused(qrCode('get', { qrCodeId: byId(CODE_ID) }), () => answer);
			expect(error.message).toMatch(new RegExp(`^The Dynamic QR API answered ${answer.status}`));
			expect(service.requests).toHaveLength(1);
		},
	);
});

describe('fallbacks.ts: a refusal no fallback knows is passed on at once', () => {
	const rejects = (field) => json(422, { message: 'Invalid.', errors: { [field]: ['Invalid.'] } });

	test('Create with tags refused on a field the tags fallback does not answer: sent once', async () => {
		const error = await refused(createCode({ additionalFields: { tags: 'spring, print' } }), () =>
			rejects('labels'),
		);
		expect(error.message).toBe('The API rejected the request (422): labels: Invalid.');
		expect(service.requests).toHaveLength(1);
	});

	test('tags refused as a list and as a string: two attempts, then the refusal', async () => {
		const error = await refused(createCode({ additionalFields: { tags: 'spring, print' } }), () =>
			rejects('tags'),
		);
		expect(error.message).toBe('The API rejected the request (422): tags: Invalid.');
		expect(service.requests.map((request) => JSON.parse(request.body).tags)).toEqual([
			['spring', 'print'],
			'spring, print',
		]);
	});

	test('Lead › Get Many with Since refused on another field: sent once, never a loop of forms', async () => {
		const error = await refused(
			{
				resource: 'lead',
				operation: 'getAll',
				returnAll: true,
				cardId: byId(CODE_ID),
				filters: { since: '2030-05-01T18:00:00Z' },
			},
			() => rejects('cursor'),
		);
		expect(error.message).toBe('The API rejected the request (422): cursor: Invalid.');
		expect(service.requests).toHaveLength(1);
	});
});

describe('errors.ts: what an unreadable answer quotes', () => {
	test('never an API key or a signing secret, and at most 200 characters', async () => {
		const other = 'api_AnotherWorkspaceKey0123456789abcd';
		const text = `${other} whsec_c2VjcmV0c2VjcmV0c2VjcmV0 ${'x'.repeat(1000)}`;
		const error = await refused(qrCode('getAll', { returnAll: true }), () => ({
			status: 200,
			body: text,
			type: 'text/plain',
		}));
		const quoted = error.message.split('cannot read: ')[1];
		expect(quoted).toMatch(/^api_\[hidden\] whsec_\[hidden\] x+…$/);
		expect(quoted.length).toBe(201);
		expect(error.message).not.toMatch(/AnotherWorkspaceKey|c2VjcmV0/);
	});

	test("the credential's key at the start of an image answer is not quoted", async () => {
		const error = await refused(
			qrCode('downloadImage', { qrCodeId: byId(CODE_ID), format: 'svg', size: 256 }),
			({ path }) =>
				path.includes('/image')
					? { status: 200, body: `${KEY} is not allowed here`, type: 'text/plain' }
					: json(200, { data: { id: CODE_ID } }),
		);
		expect(error.message).toMatch(
			/the SVG image in a shape this node cannot read: text\/plain, \d+ bytes beginning "api_\[hidden\] is not allo"$/,
		);
	});
});
