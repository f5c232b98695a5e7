'use strict';

const { useSandbox, ofType, settleDeliveries } = require('./helpers');
const { startRecorder } = require('../../http-recorder');

const sb = useSandbox();

afterEach(() => sb.control('POST', '/reset'));

const LEAD_FIELDS = {
	name: 'Ada Lovelace',
	email: 'ada@example.com',
	phone: '+441234567890',
	company: 'Engines Ltd',
	message: 'Call me',
};

describe('cards', () => {
	test('GET /cards lists the seeded card in a paginated list', async () => {
		const answer = await sb.api.get('/cards');
		expect(answer.status).toBe(200);
		expect(answer.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 25, total: 1 });
		expect(answer.body.data).toEqual([
			{
				id: sb.cardId,
				object: 'card',
				name: 'Sandbox Card',
				page_url: `${sb.siteUrl}/c/${sb.cardId}`,
				short_url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/s\/[A-Za-z0-9]+$/),
				created_at: expect.stringMatching(/Z$/),
			},
		]);
	});

	test('GET /cards/{id} answers the card; another workspace sees a 404', async () => {
		const answer = await sb.readOnlyApi.get(`/cards/${sb.cardId}`);
		expect(answer.body.data).toMatchObject({ id: sb.cardId, object: 'card' });
		expect((await sb.basicApi.get(`/cards/${sb.cardId}`)).status).toBe(404);
		expect((await sb.basicApi.get('/cards')).body.data).toEqual([]);
		expect((await sb.api.get('/cards/AAAAAAAAAAAA')).status).toBe(404);
	});
});

describe('leads', () => {
	test('a lead from the control API is listed, newest first, with the shared fields', async () => {
		const first = (await sb.control('POST', '/leads', LEAD_FIELDS)).data;
		await sb.control('POST', '/clock/advance', { seconds: 1 });
		const second = (
			await sb.control('POST', '/leads', { card_id: sb.cardId, email: 'b@example.com' })
		).data;
		expect(first).toEqual({
			id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
			object: 'lead',
			card_id: sb.cardId,
			...LEAD_FIELDS,
			created_at: expect.stringMatching(/Z$/),
		});
		expect(second).toMatchObject({
			name: null,
			email: 'b@example.com',
			phone: null,
			company: null,
			message: null,
		});
		const answer = await sb.readOnlyApi.get(`/cards/${sb.cardId}/leads`);
		expect(answer.status).toBe(200);
		expect(answer.body.data).toEqual([second, first]);
		expect(answer.body.meta.total).toBe(2);
	});

	test('since lists only leads strictly newer; a bad since is a 422', async () => {
		const first = (await sb.control('POST', '/leads', LEAD_FIELDS)).data;
		await sb.control('POST', '/clock/advance', { seconds: 60 });
		const second = (await sb.control('POST', '/leads', LEAD_FIELDS)).data;
		const since = encodeURIComponent(first.created_at);
		expect(
			(await sb.api.get(`/cards/${sb.cardId}/leads?since=${since}`)).body.data.map((l) => l.id),
		).toEqual([second.id]);
		expect(
			(await sb.api.get(`/cards/${sb.cardId}/leads?since=${encodeURIComponent(second.created_at)}`))
				.body.data,
		).toEqual([]);
		const bad = await sb.api.get(`/cards/${sb.cardId}/leads?since=last-week`);
		expect(bad.status).toBe(422);
		expect(Object.keys(bad.body.errors)).toEqual(['since']);
	});

	test('leads page like every list', async () => {
		for (let i = 0; i < 3; i += 1) await sb.control('POST', '/leads', { name: `Lead ${i}` });
		const page = await sb.api.get(`/cards/${sb.cardId}/leads?per_page=2&page=2`);
		expect(page.body.data.map((lead) => lead.name)).toEqual(['Lead 0']);
		expect(page.body.meta).toEqual({ current_page: 2, last_page: 2, per_page: 2, total: 3 });
		expect((await sb.api.get(`/cards/${sb.cardId}/leads?per_page=101`)).status).toBe(422);
	});

	test('a lead emits lead.created with { card, lead }', async () => {
		const receiver = await startRecorder();
		try {
			await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['lead.created'] });
			const lead = (await sb.control('POST', '/leads', LEAD_FIELDS)).data;
			await settleDeliveries(sb);
			const card = (await sb.api.get(`/cards/${sb.cardId}`)).body.data;
			expect(ofType(receiver, 'lead.created').map((delivery) => delivery.body.data)).toEqual([
				{ card, lead },
			]);
		} finally {
			await receiver.close();
		}
	});

	test('a lead for an unknown card is a 404', async () => {
		await expect(sb.control('POST', '/leads', { card_id: 'AAAAAAAAAAAA' })).rejects.toMatchObject({
			status: 404,
		});
	});
});
