'use strict';

const { useSandbox } = require('./helpers');
const { sandboxClient, request } = require('../client');
const { startSandbox } = require('..');

const sb = useSandbox({ rateLimitPerMinute: 6000 });
const validCode = { type: 'url', name: 'Auth test', payload: { url: 'https://example.com' } };

afterEach(async () => {
	await sb.control('POST', '/reset');
	await sb.control('POST', '/config', { rateLimitPerMinute: 6000 });
});

describe('authentication', () => {
	test('an absent key is a 401 with { message, errors } and a Bearer challenge', async () => {
		const answer = await sandboxClient(sb, null).get('/me');
		expect(answer.status).toBe(401);
		expect(answer.headers['www-authenticate']).toBe('Bearer');
		expect(answer.body).toEqual({
			message: expect.stringContaining('Authorization: Bearer'),
			errors: {},
		});
	});

	test('an unknown key is a 401', async () => {
		const answer = await sandboxClient(sb, 'api_doesnotexist').get('/me');
		expect(answer.status).toBe(401);
		expect(answer.body.message).toMatch(/not valid/);
	});

	test('a header that is not Bearer is a 401', async () => {
		const answer = await sandboxClient(sb, null).get('/me', {
			Authorization: `Basic ${sb.keys.readWrite}`,
		});
		expect(answer.status).toBe(401);
	});

	test('a revoked key is a 401', async () => {
		const answer = await sandboxClient(sb, sb.keys.revoked).get('/qr-codes');
		expect(answer.status).toBe(401);
		expect(answer.body.message).toMatch(/revoked/);
	});

	test('a key of a plan without API access is a 403', async () => {
		const answer = await sandboxClient(sb, sb.keys.noApi).get('/me');
		expect(answer.status).toBe(403);
		expect(answer.body.message).toMatch(/Free plan has no API access/);
	});

	test('keys begin with api_ and the seeded keys are distinct', () => {
		const keys = Object.values(sb.keys);
		expect(keys).toHaveLength(5);
		for (const key of keys) expect(key).toMatch(/^api_[A-Za-z0-9]+$/);
		expect(new Set(keys).size).toBe(5);
	});
});

describe('read-only keys', () => {
	test('can read codes, cards and webhooks', async () => {
		for (const path of ['/me', '/qr-codes', '/cards', `/cards/${sb.cardId}/leads`, '/webhooks']) {
			expect((await sb.readOnlyApi.get(path)).status).toBe(200);
		}
	});

	test('get a 403 with a clear message on every write', async () => {
		const created = await sb.api.post('/qr-codes', validCode);
		const id = created.body.data.id;
		const writes = [
			() => sb.readOnlyApi.post('/qr-codes', validCode),
			() => sb.readOnlyApi.patch(`/qr-codes/${id}`, { name: 'x' }),
			() => sb.readOnlyApi.delete(`/qr-codes/${id}`),
			() =>
				sb.readOnlyApi.post('/webhooks', {
					url: 'https://example.com/hook',
					events: ['scan.created'],
				}),
			() => sb.readOnlyApi.delete('/webhooks/AAAAAAAAAAAA'),
			() =>
				sb.readOnlyApi.post('/static-qr-codes', {
					type: 'url',
					payload: { url: 'https://example.com' },
				}),
			() =>
				sb.readOnlyApi.raw('POST', '/uploads/logos', {
					headers: { 'Content-Type': 'multipart/form-data; boundary=x' },
					body: '--x--\r\n',
				}),
		];
		for (const write of writes) {
			const answer = await write();
			expect(answer.status).toBe(403);
			expect(answer.body.message).toBe(
				"This API key is read-only. Create a read-write key in the dashboard's developer settings.",
			);
		}
		// Nothing was changed by the refused writes.
		expect((await sb.api.get(`/qr-codes/${id}`)).body.data.name).toBe('Auth test');
	});
});

describe('GET /me', () => {
	test('describes account, workspace, plan, key and limits', async () => {
		const answer = await sb.api.get('/me');
		expect(answer.status).toBe(200);
		expect(answer.body.data).toMatchObject({
			account: { email: 'owner@sandbox.test' },
			workspace: { name: 'Sandbox Pro', id: expect.stringMatching(/^[A-Za-z0-9]{12}$/) },
			plan: { name: 'Pro', api_access: true, smart_redirects: true },
			key: { access: 'read_write', prefix: sb.keys.readWrite.slice(0, 8) },
			limits: { requests_per_minute: 6000 },
		});
		expect(JSON.stringify(answer.body)).not.toContain(sb.keys.readWrite);
	});

	test('shows read_only for a read-only key and the Basic plan without smart redirects', async () => {
		expect((await sb.readOnlyApi.get('/me')).body.data.key.access).toBe('read_only');
		const basic = (await sb.basicApi.get('/me')).body.data;
		expect(basic.plan).toEqual({ name: 'Basic', api_access: true, smart_redirects: false });
	});
});

describe('rate limit', () => {
	test('every API answer carries X-RateLimit-Limit and X-RateLimit-Remaining, errors too', async () => {
		const ok = await sb.api.get('/me');
		const notFound = await sb.api.get('/qr-codes/AAAAAAAAAAAA');
		expect(notFound.status).toBe(404);
		for (const answer of [ok, notFound]) {
			expect(answer.headers['x-ratelimit-limit']).toBe('6000');
			expect(Number(answer.headers['x-ratelimit-remaining'])).toBeGreaterThan(5900);
		}
		// An error spends a token too. On a bucket that refills once in 10 s, so that no token comes
		// back between the two answers (the default bucket refills every 10 ms).
		await sb.control('POST', '/config', { rateLimitPerMinute: 6, rateLimitBurst: 100 });
		const first = await sb.api.get('/me');
		const failed = await sb.api.get('/qr-codes/AAAAAAAAAAAA');
		expect(failed.status).toBe(404);
		expect(failed.headers['x-ratelimit-limit']).toBe('6');
		expect(Number(failed.headers['x-ratelimit-remaining'])).toBe(
			Number(first.headers['x-ratelimit-remaining']) - 1,
		);
	});

	test('a spent bucket answers 429 with Retry-After; refills with time on the sandbox clock', async () => {
		await sb.control('POST', '/config', { rateLimitPerMinute: 60, rateLimitBurst: 2 });
		expect((await sb.api.get('/me')).headers['x-ratelimit-remaining']).toBe('1');
		expect((await sb.api.get('/me')).headers['x-ratelimit-remaining']).toBe('0');
		const limited = await sb.api.get('/me');
		expect(limited.status).toBe(429);
		expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
		expect(limited.headers['x-ratelimit-limit']).toBe('60');
		expect(limited.body.message).toMatch(/Too many requests/);
		// Buckets are per key: the read-only key still has its own tokens.
		expect((await sb.readOnlyApi.get('/me')).status).toBe(200);
		await sb.control('POST', '/clock/advance', { seconds: 1 });
		expect((await sb.api.get('/me')).status).toBe(200);
	});

	test('startSandbox takes rateLimitPerMinute and rateLimitBurst', async () => {
		const own = await startSandbox({ rateLimitPerMinute: 120, rateLimitBurst: 1 });
		try {
			const api = sandboxClient(own, own.keys.readWrite);
			const first = await api.get('/me');
			expect(first.headers['x-ratelimit-limit']).toBe('120');
			expect(first.body.data.limits.requests_per_minute).toBe(120);
			expect((await api.get('/me')).status).toBe(429);
		} finally {
			await own.close();
		}
	});

	test('the burst defaults to one minute of requests', async () => {
		const config = await sb.control('POST', '/config', { rateLimitPerMinute: 3 });
		expect(config).toEqual({ rateLimitPerMinute: 3, rateLimitBurst: 3 });
		const statuses = [];
		for (let i = 0; i < 4; i += 1) statuses.push((await sb.api.get('/me')).status);
		expect(statuses).toEqual([200, 200, 200, 429]);
		expect((await sb.api.get('/me')).headers['retry-after']).toBe('20');
	});
});

describe('faults', () => {
	test('a 429 storm answers the next N requests with 429 and the chosen Retry-After', async () => {
		const faults = await sb.control('POST', '/faults', { status429Count: 3, retryAfterSeconds: 7 });
		expect(faults.status429Count).toBe(3);
		const statuses = [];
		for (let i = 0; i < 4; i += 1) {
			const answer = await sb.api.get('/qr-codes');
			statuses.push(answer.status);
			if (answer.status === 429) {
				expect(answer.headers['retry-after']).toBe('7');
				expect(answer.headers['x-ratelimit-remaining']).toBeDefined();
			}
		}
		expect(statuses).toEqual([429, 429, 429, 200]);
		expect((await sb.control('GET', '/faults')).status429Count).toBe(0);
	});

	test('listPageFailures fails the next N reads of a later page of the list with 503, the first page never', async () => {
		for (let i = 0; i < 3; i += 1) {
			await sb.api.post('/qr-codes', {
				name: `page ${i}`,
				type: 'url',
				payload: { url: 'https://example.com' },
			});
		}
		await sb.control('POST', '/faults', { listPageFailures: 2, retryAfterSeconds: 9 });
		const statuses = [];
		for (const page of [1, 2, 3, 2]) {
			const answer = await sb.api.get(`/qr-codes?per_page=1&page=${page}`);
			statuses.push(answer.status);
			if (answer.status === 503) expect(answer.headers['retry-after']).toBe('9');
		}
		expect(statuses).toEqual([200, 503, 503, 200]);
		expect((await sb.control('GET', '/faults')).listPageFailures).toBe(0);
	});

	test('Retry-After of the storm defaults to 1 second', async () => {
		await sb.control('POST', '/faults', { status429Count: 1 });
		expect((await sb.api.get('/me')).headers['retry-after']).toBe('1');
	});

	test('latencyMs delays every API answer', async () => {
		await sb.control('POST', '/faults', { latencyMs: 250 });
		const started = Date.now();
		await sb.api.get('/me');
		expect(Date.now() - started).toBeGreaterThanOrEqual(240);
	});

	test('latencyJitterMs handles requests sent together in any order', async () => {
		await sb.control('POST', '/faults', { latencyJitterMs: 40 });
		const names = Array.from({ length: 12 }, (_, index) => `jitter ${index}`);
		// Sent one after another without waiting; the control API lists codes in creation order.
		await Promise.all(
			names.map((name) =>
				sb.api.post('/qr-codes', { name, type: 'url', payload: { url: 'https://example.com' } }),
			),
		);
		const created = (await sb.control('GET', '/qr-codes')).data
			.filter((code) => code.name.startsWith('jitter '))
			.map((code) => code.name);
		expect([...created].sort()).toEqual([...names].sort());
		expect(created).not.toEqual(names);
	});

	test('unknown faults and bad values are a 422', async () => {
		await expect(sb.control('POST', '/faults', { explode: true })).rejects.toMatchObject({
			status: 422,
		});
		await expect(sb.control('POST', '/faults', { dropAfterCommitRate: 2 })).rejects.toMatchObject({
			status: 422,
		});
	});

	test('reset clears the faults', async () => {
		await sb.control('POST', '/faults', { status429Count: 5 });
		await sb.control('POST', '/reset');
		expect((await sb.api.get('/me')).status).toBe(200);
	});
});

describe('reset', () => {
	test('forgets codes, scans, leads, endpoints, deliveries and requests; keeps keys and the card', async () => {
		const code = (await sb.api.post('/qr-codes', validCode)).body.data;
		await sb.control('POST', '/scans', { qr_code_id: code.id });
		await sb.control('POST', '/leads', { name: 'x' });
		await sb.api.post('/webhooks', { url: 'http://127.0.0.1:9/hook', events: ['lead.created'] });
		await sb.control('POST', '/reset');
		expect((await sb.control('GET', '/qr-codes')).data).toEqual([]);
		expect((await sb.control('GET', '/webhooks')).data).toEqual([]);
		expect((await sb.control('GET', '/deliveries')).data).toEqual([]);
		expect((await sb.control('GET', '/requests')).data).toEqual([]);
		expect((await sb.api.get(`/cards/${sb.cardId}/leads`)).body.data).toEqual([]);
		expect((await sb.api.get(`/cards/${sb.cardId}`)).status).toBe(200);
	});
});

describe('request log', () => {
	test('records method, path, query, status and idempotency key, never the key', async () => {
		await sb.api.get('/qr-codes?search=abc');
		await sb.api.post('/qr-codes', validCode, { 'Idempotency-Key': 'log-1' });
		await sandboxClient(sb, null).get('/me');
		const { data } = await sb.control('GET', '/requests');
		expect(data).toEqual([
			{
				method: 'GET',
				path: '/qr-codes',
				query: { search: 'abc' },
				status: 200,
				idempotency_key: null,
				at: expect.any(String),
				in_flight: 1, // each asked after the answer before
			},
			{
				method: 'POST',
				path: '/qr-codes',
				query: {},
				status: 201,
				idempotency_key: 'log-1',
				at: expect.any(String),
				in_flight: 1, // each asked after the answer before
			},
			{
				method: 'GET',
				path: '/me',
				query: {},
				status: 401,
				idempotency_key: null,
				at: expect.any(String),
				in_flight: 1, // each asked after the answer before
			},
		]);
		const text = JSON.stringify(data);
		for (const key of Object.values(sb.keys)) expect(text).not.toContain(key);
		expect(text).not.toMatch(/authorization/i);
	});
});

describe('routing', () => {
	test('an unknown API path is a 404 in the error shape', async () => {
		const answer = await sb.api.get('/nothing-here');
		expect(answer.status).toBe(404);
		expect(answer.body).toEqual({ message: expect.any(String), errors: {} });
	});

	test('a body that is not JSON is a 422 on body', async () => {
		const answer = await sb.api.raw('POST', '/qr-codes', {
			headers: { 'Content-Type': 'application/json' },
			body: '{oops',
		});
		expect(answer.status).toBe(422);
		expect(answer.body.errors.body).toBeDefined();
	});

	test('the control API needs no key and GET /info lists every key', async () => {
		const info = await request(`${sb.siteUrl}/__sandbox/info`);
		expect(info.status).toBe(200);
		expect(info.body).toEqual({
			siteUrl: sb.siteUrl,
			baseUrl: sb.baseUrl,
			keys: sb.keys,
			cardId: sb.cardId,
		});
	});
});
