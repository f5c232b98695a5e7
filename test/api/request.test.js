'use strict';
/**
 * The one request function (api/request.ts), unit level: the built apiRequest with a stubbed
 * n8n. Redirects are followed by the node, with credentials only on the API's origin; a
 * Retry-After date already past falls back to a growing backoff.
 */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

const { ApiClient } = require(path.join(DIST, 'nodes/DynamicQr/api/client.js'));

/** One request through a new run's client, as the nodes send it. */
const apiRequest = (ctx, method, apiPath, options) =>
	new ApiClient(ctx).request(method, apiPath, options);

describe('redirects, unit level (the built ApiClient with a stubbed n8n)', () => {
	const BASE = 'https://qr.example.com/api/v1';

	/** A context whose authenticated and plain requests answer from `script`, and are recorded. */
	function stubContext(script) {
		const calls = [];
		const answer = (kind) => async (request) => {
			calls.push({ kind, request });
			return script(request, kind);
		};
		return {
			calls,
			ctx: {
				getNode: () => ({ name: 'Dynamic QR', type: 'n8n-nodes-dynamic-qr.dynamicQr' }),
				getCredentials: async () => ({ apiKey: 'secret-key', baseUrl: BASE }),
				helpers: {
					httpRequestWithAuthentication: async function (_name, request) {
						return answer('authenticated')(request);
					},
					httpRequest: answer('plain'),
				},
			},
		};
	}

	test('a redirect on the API origin is followed with authentication, redirects not left to n8n', async () => {
		const { ctx: stub, calls } = stubContext((request) =>
			request.url.endsWith('/qr-codes/abc')
				? { statusCode: 301, headers: { location: '/api/v1/qr-codes/abc/' }, body: '' }
				: { statusCode: 200, headers: {}, body: { data: { id: 'abc' } } },
		);
		const answer = await apiRequest(stub, 'GET', '/qr-codes/abc', { qs: { a: 1 } });
		expect(answer).toEqual({ data: { id: 'abc' } });
		expect(calls.map((c) => [c.kind, c.request.url])).toEqual([
			['authenticated', `${BASE}/qr-codes/abc`],
			['authenticated', `${BASE}/qr-codes/abc/`],
		]);
		expect(calls.every((c) => c.request.disableFollowRedirect === true)).toBe(true);
		expect(calls[1].request.qs).toBeUndefined();
	});

	test('a redirect to another origin goes without credentials, and never gets them back', async () => {
		const { ctx: stub, calls } = stubContext((request) => {
			if (request.url === `${BASE}/qr-codes/abc/image`)
				return { statusCode: 302, headers: { location: 'https://cdn.example.net/f' }, body: '' };
			if (request.url === 'https://cdn.example.net/f')
				return { statusCode: 307, headers: { location: `${BASE}/again` }, body: '' };
			return { statusCode: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('x') };
		});
		const answer = await apiRequest(stub, 'GET', '/qr-codes/abc/image', {
			binary: true,
			idempotencyKey: 'k',
		});
		expect(answer.contentType).toBe('image/png');
		expect(calls.map((c) => [c.kind, c.request.url])).toEqual([
			['authenticated', `${BASE}/qr-codes/abc/image`],
			['plain', 'https://cdn.example.net/f'],
			['plain', `${BASE}/again`],
		]);
		for (const { request } of calls.slice(1)) {
			expect(Object.keys(request.headers)).toEqual(['Accept']);
		}
	});

	test('a Retry-After date already past falls back to a growing backoff, bounded by the wait', async () => {
		const past = new Date(Date.now() - 60000).toUTCString();
		const { ctx: stub, calls } = stubContext(() => ({
			statusCode: 503,
			headers: { 'retry-after': past },
			body: { message: 'Unavailable' },
		}));
		const started = Date.now();
		await expect(apiRequest(stub, 'GET', '/qr-codes', { maxWaitSeconds: 3 })).rejects.toMatchObject(
			{ message: expect.stringMatching(/503/) },
		);
		// Waits of 1 s then 2 s: three attempts in about three seconds, not one a second forever.
		expect(calls).toHaveLength(3);
		expect(Date.now() - started).toBeGreaterThanOrEqual(2900);
	});
});
