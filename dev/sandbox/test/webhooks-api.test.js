'use strict';

const { Webhook } = require('standardwebhooks');
const { useSandbox, settleDeliveries, USER_AGENTS } = require('./helpers');
const { request } = require('../client');
const { startRecorder } = require('../../http-recorder');

const sb = useSandbox();

let receiver;
beforeEach(async () => {
	receiver = await startRecorder();
});
afterEach(async () => {
	await receiver.close();
	await sb.control('POST', '/reset');
});

const ALL_EVENTS = [
	'qr_code.created',
	'qr_code.updated',
	'qr_code.deleted',
	'scan.created',
	'lead.created',
];

describe('webhook endpoints', () => {
	test('POST creates an endpoint with its secret; GET lists it without the secret', async () => {
		const created = await sb.api.post('/webhooks', {
			url: receiver.urlFor('/hook'),
			events: ALL_EVENTS,
		});
		expect(created.status).toBe(201);
		expect(created.body.data).toEqual({
			id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
			object: 'webhook_endpoint',
			url: receiver.urlFor('/hook'),
			events: ALL_EVENTS,
			status: 'active',
			created_at: expect.stringMatching(/Z$/),
			secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
		});
		const list = await sb.readOnlyApi.get('/webhooks');
		const { secret, ...withoutSecret } = created.body.data;
		expect(list.body.data).toEqual([withoutSecret]);
		expect(list.body.meta.total).toBe(1);
		expect(JSON.stringify(list.body)).not.toContain(secret);
		expect((await sb.basicApi.get('/webhooks')).body.data).toEqual([]);
		expect((await sb.control('GET', '/webhooks')).data).toEqual([withoutSecret]);
	});

	test.each([
		[{ events: ['scan.created'] }, 'url'],
		[{ url: 'not a url', events: ['scan.created'] }, 'url'],
		[{ url: 'ftp://example.com/hook', events: ['scan.created'] }, 'url'],
		[{ url: 'https://example.com/hook' }, 'events'],
		[{ url: 'https://example.com/hook', events: [] }, 'events'],
		[{ url: 'https://example.com/hook', events: 'scan.created' }, 'events'],
		[{ url: 'https://example.com/hook', events: ['scan.created', 'card.updated'] }, 'events'],
	])('%j is a 422 naming %s', async (body, field) => {
		const answer = await sb.api.post('/webhooks', body);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});

	test('DELETE removes the endpoint (204); an unknown or foreign id is a 404', async () => {
		const { id } = (
			await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['scan.created'] })
		).body.data;
		expect((await sb.basicApi.delete(`/webhooks/${id}`)).status).toBe(404);
		const answer = await sb.api.delete(`/webhooks/${id}`);
		expect(answer.status).toBe(204);
		expect(answer.text).toBe('');
		expect((await sb.api.get('/webhooks')).body.data).toEqual([]);
		expect((await sb.api.delete(`/webhooks/${id}`)).status).toBe(404);
	});
});

describe('deliveries', () => {
	test('a real scan reaches a local receiver as a signed scan.created that standardwebhooks verifies', async () => {
		const { secret } = (
			await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['scan.created'] })
		).body.data;
		const code = (
			await sb.api.post('/qr-codes', {
				type: 'url',
				name: 'Poster',
				payload: { url: 'https://example.com' },
			})
		).body.data;
		const scan = await request(code.short_url, {
			headers: { 'User-Agent': USER_AGENTS.androidChrome },
		});
		expect(scan.status).toBe(302);
		await settleDeliveries(sb);

		expect(receiver.records).toHaveLength(1); // subscribed to scans only: no qr_code.created
		const { headers, rawBody } = receiver.records[0];
		expect(headers['content-type']).toBe('application/json');
		expect(headers['webhook-id']).toMatch(/^evt_/);
		expect(headers['webhook-signature']).toMatch(/^v1,/);
		const event = new Webhook(secret).verify(rawBody, headers);
		expect(event).toMatchObject({
			id: headers['webhook-id'],
			type: 'scan.created',
			data: {
				qr_code: { id: code.id, name: 'Poster', type: 'url' },
				os: 'Android',
				browser: 'Chrome',
				device: 'mobile',
			},
		});
		expect(() => new Webhook(secret).verify(`${rawBody} `, headers)).toThrow();
		const deliveries = (await sb.control('GET', '/deliveries?type=scan.created')).data;
		expect(deliveries).toEqual([
			expect.objectContaining({ event_id: headers['webhook-id'], status: 'succeeded' }),
		]);
	});

	test('a failing receiver is retried on the sandbox clock with the same webhook-id', async () => {
		const { id } = (
			await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['lead.created'] })
		).body.data;
		receiver.answerWith(500);
		await sb.control('POST', '/leads', { name: 'Retry me' });
		await settleDeliveries(sb);
		expect(receiver.records).toHaveLength(1);
		receiver.answerWith(204);
		await sb.control('POST', '/clock/advance', { seconds: 59 });
		expect(receiver.records).toHaveLength(1);
		await sb.control('POST', '/clock/advance', { seconds: 1 });
		expect(receiver.records).toHaveLength(2);
		expect(receiver.records[1].headers['webhook-id']).toBe(
			receiver.records[0].headers['webhook-id'],
		);
		const [delivery] = (await sb.control('GET', `/deliveries?endpoint_id=${id}`)).data;
		expect(delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null });
		expect(delivery.attempts.map((attempt) => attempt.status_code)).toEqual([500, 204]);
	});

	test('a running sandbox delivers due retries by itself within about a second', async () => {
		receiver.answerWith(503);
		await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['lead.created'] });
		await sb.control('POST', '/leads', { name: 'Later' });
		await settleDeliveries(sb);
		receiver.answerWith(200);
		sb.clock.advance(60 * 1000); // moves the clock only; no control call runs the retry
		const deadline = Date.now() + 2500;
		while (receiver.records.length < 2 && Date.now() < deadline)
			await new Promise((r) => setTimeout(r, 50));
		expect(receiver.records).toHaveLength(2);
	});

	test('events go only to endpoints of the same workspace that subscribed to them', async () => {
		await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['qr_code.deleted'] });
		const other = await startRecorder();
		try {
			await sb.basicApi.post('/webhooks', { url: other.urlFor('/hook'), events: ALL_EVENTS });
			await sb.api.post('/qr-codes', {
				type: 'url',
				name: 'x',
				payload: { url: 'https://example.com' },
			});
			await settleDeliveries(sb);
			expect(receiver.records).toHaveLength(0);
			expect(other.records).toHaveLength(0);
		} finally {
			await other.close();
		}
	});

	test('an endpoint whose events all fail 20 times in a row is paused and the owner is e-mailed', async () => {
		receiver.answerWith(500);
		await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['lead.created'] });
		for (let i = 0; i < 20; i += 1) await sb.control('POST', '/leads', { name: `Lead ${i}` });
		await sb.control('POST', '/clock/advance', { seconds: 9 * 3600 });
		const [endpoint] = (await sb.api.get('/webhooks')).body.data;
		expect(endpoint.status).toBe('paused');
		const { data: mails } = await sb.control('GET', '/outbox');
		expect(mails).toEqual([
			expect.objectContaining({
				to: 'owner@sandbox.test',
				subject: expect.stringContaining(receiver.urlFor('/hook')),
			}),
		]);
	});
});
