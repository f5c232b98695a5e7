'use strict';

const { useSandbox, ofType, settleDeliveries } = require('./helpers');
const { request } = require('../client');
const { startRecorder } = require('../../http-recorder');

const sb = useSandbox();

const create = (body, headers) => sb.api.post('/qr-codes', body, headers);
const urlCode = (name = 'Landing page', url = 'https://example.com/landing') => ({
	type: 'url',
	name,
	payload: { url },
});

afterEach(() => sb.control('POST', '/reset'));

// One valid payload per type and where its short link must lead (`PAGE` = the sandbox page of the code).
const PAGE = Symbol('page');
const TYPE_CASES = {
	url: [{ url: 'https://example.com/a' }, 'https://example.com/a'],
	whatsapp: [
		{ phone: '+49 151 2345-6789', message: 'Hi there' },
		'https://wa.me/4915123456789?text=Hi%20there',
	],
	phone: [{ phone: '+1 (415) 555-0123' }, 'tel:+14155550123'],
	email: [
		{ email: 'team@example.com', subject: 'Hello you', body: 'Line & more' },
		'mailto:team@example.com?subject=Hello%20you&body=Line%20%26%20more',
	],
	sms: [{ phone: '+14155550123', message: 'STOP' }, 'sms:+14155550123?body=STOP'],
	maps: [
		{ query: 'Brandenburger Tor, Berlin' },
		'https://www.google.com/maps/search/?api=1&query=Brandenburger%20Tor%2C%20Berlin',
	],
	google_review: [
		{ place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
		'https://search.google.com/local/writereview?placeid=ChIJN1t_tDeuEmsRUsoyG83frY4',
	],
	link_bio: [{ title: 'Me', links: [{ title: 'Blog', url: 'https://blog.example.com' }] }, PAGE],
	menu: [
		{ title: 'Lunch', menu_url: 'https://example.com/menu.pdf' },
		'https://example.com/menu.pdf',
	],
	app_store: [
		{
			ios_url: 'https://apps.apple.com/app/id1',
			android_url: 'https://play.google.com/store/apps/details?id=x',
			fallback_url: 'https://example.com/app',
		},
		'https://example.com/app',
	],
	event: [{ title: 'Launch', starts_at: '2030-05-01T18:00:00Z', location: 'Berlin' }, PAGE],
	coupon: [{ title: '10% off', code: 'SAVE10', expires_at: '2030-12-31' }, PAGE],
	social: [{ platform: 'instagram', handle: '@example' }, 'https://www.instagram.com/example'],
	file: [
		{ title: 'Brochure', file_url: 'https://example.com/brochure.pdf' },
		'https://example.com/brochure.pdf',
	],
};

describe('create', () => {
	test.each(Object.entries(TYPE_CASES))(
		'type %s is created with its destination',
		async (type, [payload, destination]) => {
			const answer = await create({ type, name: `A ${type} code`, payload });
			expect(answer.status).toBe(201);
			const code = answer.body.data;
			expect(code).toMatchObject({
				object: 'qr_code',
				id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
				type,
				payload,
				destination: destination === PAGE ? `${sb.siteUrl}/p/${code.id}` : destination,
				status: 'active',
				paused: false,
				scans: 0,
				last_scanned_at: null,
				archived: false,
				folder: null,
				tags: [],
				domain: new URL(sb.siteUrl).host,
				design: { logo_upload_id: null },
			});
			expect(code.short_url).toMatch(
				new RegExp(`^http://${new URL(sb.siteUrl).host}/s/[A-Za-z0-9]+$`),
			);
			expect(code.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
			expect(code.updated_at).toBe(code.created_at);
		},
	);

	test('a file code without file_url leads to its sandbox page', async () => {
		const code = (await create({ type: 'file', name: 'Doc', payload: { title: 'Doc' } })).body.data;
		expect(code.destination).toBe(`${sb.siteUrl}/p/${code.id}`);
	});

	test('the record has exactly the documented fields; GET leaves out the design', async () => {
		const created = (
			await create({ ...urlCode(), folder: 'Print', tags: ['summer', 'summer', 'flyer'] })
		).body.data;
		expect(created.folder).toBe('Print');
		expect(created.tags).toEqual(['summer', 'flyer']);
		const fetched = await sb.api.get(`/qr-codes/${created.id}`);
		expect(fetched.status).toBe(200);
		expect(Object.keys(fetched.body.data).sort()).toEqual(
			[
				'id',
				'object',
				'name',
				'type',
				'payload',
				'short_url',
				'domain',
				'destination',
				'status',
				'paused',
				'scans',
				'last_scanned_at',
				'archived',
				'folder',
				'tags',
				'created_at',
				'updated_at',
			].sort(),
		);
	});

	test('the second redirect domain may be chosen; any other is a 422 on domain', async () => {
		const port = new URL(sb.siteUrl).port;
		const chosen = await create({ ...urlCode(), domain: `localhost:${port}` });
		expect(chosen.status).toBe(201);
		expect(chosen.body.data.short_url).toMatch(new RegExp(`^http://localhost:${port}/s/`));
		const other = await create({ ...urlCode(), domain: 'qr.example.com' });
		expect(other.status).toBe(422);
		expect(other.body.errors.domain).toBeDefined();
	});

	test.each([
		['type', { name: 'x', payload: { url: 'https://e.com' } }],
		['name', { type: 'url', payload: { url: 'https://e.com' } }],
		['payload', { type: 'url', name: 'x' }],
	])('a missing %s is a 422 naming it', async (field, body) => {
		const answer = await create(body);
		expect(answer.status).toBe(422);
		expect(answer.body.errors[field]).toEqual([expect.stringContaining('required')]);
		expect(answer.body.message).toEqual(expect.any(String));
	});

	test.each([
		['url', {}, 'payload.url'],
		['whatsapp', { message: 'hi' }, 'payload.phone'],
		['phone', {}, 'payload.phone'],
		['email', { subject: 's' }, 'payload.email'],
		['sms', {}, 'payload.phone'],
		['maps', {}, 'payload.query'],
		['google_review', {}, 'payload.place_id'],
		['link_bio', { title: 'x' }, 'payload.links'],
		['menu', { title: 'x' }, 'payload.menu_url'],
		[
			'app_store',
			{ ios_url: 'https://a.com', android_url: 'https://b.com' },
			'payload.fallback_url',
		],
		['event', { title: 'x' }, 'payload.starts_at'],
		['coupon', { title: 'x' }, 'payload.code'],
		['social', { platform: 'x' }, 'payload.handle'],
		['file', {}, 'payload.title'],
	])('type %s without a required field is a 422 naming %s', async (type, payload, field) => {
		const answer = await create({ type, name: 'x', payload });
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});

	test.each([
		['url', { url: 'example.com' }, 'payload.url'],
		['url', { url: 'ftp://example.com/file' }, 'payload.url'],
		['email', { email: 'not-an-email' }, 'payload.email'],
		['phone', { phone: 'call me' }, 'payload.phone'],
		['phone', { phone: '12' }, 'payload.phone'],
		['event', { title: 'x', starts_at: 'next friday' }, 'payload.starts_at'],
		['event', { title: 'x', starts_at: '2030-02-30T10:00:00Z' }, 'payload.starts_at'],
		['coupon', { title: 'x', code: 'A', expires_at: '31/12/2030' }, 'payload.expires_at'],
		['social', { platform: 'myspace', handle: 'me' }, 'payload.platform'],
		['menu', { title: 'x', menu_url: 'menu' }, 'payload.menu_url'],
		['link_bio', { title: 'x', links: [] }, 'payload.links'],
		['link_bio', { title: 'x', links: 'https://a.com' }, 'payload.links'],
		['link_bio', { title: 'x', links: [{ title: 'A', url: 'nope' }] }, 'payload.links.0.url'],
		['link_bio', { title: 'x', links: [{ url: 'https://a.com' }] }, 'payload.links.0.title'],
		['url', { url: 'https://a.com', extra: 1 }, 'payload.extra'],
	])('type %s with %j is a 422 naming %s', async (type, payload, field) => {
		const answer = await create({ type, name: 'x', payload });
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
		expect(answer.body.errors[field][0]).toContain(field);
	});

	test('optional fields that are empty count as not set', async () => {
		const answer = await create({
			type: 'email',
			name: 'x',
			payload: { email: 'a@b.co', subject: '', body: null },
		});
		expect(answer.status).toBe(201);
		expect(answer.body.data.payload).toEqual({ email: 'a@b.co' });
		expect(answer.body.data.destination).toBe('mailto:a@b.co');
	});

	test('an unknown type, bad tags and unknown fields are 422s naming them', async () => {
		const answer = await create({
			type: 'vcard',
			name: 'x',
			payload: {},
			tags: 'a,b',
			color: 'red',
		});
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors).sort()).toEqual(['color', 'tags', 'type']);
	});

	test.each(['link_bio', 'menu', 'app_store', 'event', 'coupon'])(
		'Pro type %s on a plan without smart redirects is a 422 on type',
		async (type) => {
			const answer = await sb.basicApi.post('/qr-codes', {
				type,
				name: 'x',
				payload: TYPE_CASES[type][0],
			});
			expect(answer.status).toBe(422);
			expect(Object.keys(answer.body.errors)).toEqual(['type']);
			expect(answer.body.errors.type[0]).toMatch(/smart redirects/);
		},
	);

	test('a basic type works on the Basic plan', async () => {
		expect((await sb.basicApi.post('/qr-codes', urlCode())).status).toBe(201);
	});
});

describe('Idempotency-Key', () => {
	const codeCount = async () => (await sb.control('GET', '/qr-codes')).data.length;

	test('the same key twice creates one code and answers the first answer again', async () => {
		const first = await create(urlCode('Once'), { 'Idempotency-Key': 'row-17' });
		const second = await create(urlCode('Once'), { 'Idempotency-Key': 'row-17' });
		expect(first.status).toBe(201);
		expect(second.status).toBe(201);
		expect(second.headers['idempotent-replayed']).toBe('true');
		expect(second.body).toEqual(first.body);
		expect(await codeCount()).toBe(1);
	});

	test('the same key with a different body is a 422 on idempotency_key', async () => {
		await create(urlCode('One'), { 'Idempotency-Key': 'row-18' });
		const answer = await create(urlCode('Two'), { 'Idempotency-Key': 'row-18' });
		expect(answer.status).toBe(422);
		expect(answer.body.errors.idempotency_key).toBeDefined();
		expect(await codeCount()).toBe(1);
	});

	test('different keys create different codes; keys are per workspace', async () => {
		await create(urlCode(), { 'Idempotency-Key': 'a' });
		await create(urlCode(), { 'Idempotency-Key': 'b' });
		await sb.basicApi.post('/qr-codes', urlCode(), { 'Idempotency-Key': 'a' });
		expect(await codeCount()).toBe(3);
	});

	test('a key is remembered for 24 hours of sandbox time', async () => {
		await create(urlCode(), { 'Idempotency-Key': 'day' });
		await sb.control('POST', '/clock/advance', { seconds: 23 * 3600 });
		expect(
			(await create(urlCode(), { 'Idempotency-Key': 'day' })).headers['idempotent-replayed'],
		).toBe('true');
		await sb.control('POST', '/clock/advance', { seconds: 2 * 3600 });
		expect(
			(await create(urlCode(), { 'Idempotency-Key': 'day' })).headers['idempotent-replayed'],
		).toBeUndefined();
		expect(await codeCount()).toBe(2);
	});

	test('a failed create is not remembered: the corrected body may use the same key', async () => {
		expect(
			(await create({ type: 'url', name: 'x', payload: {} }, { 'Idempotency-Key': 'fix-me' }))
				.status,
		).toBe(422);
		expect((await create(urlCode(), { 'Idempotency-Key': 'fix-me' })).status).toBe(201);
	});

	test('a dropped connection after commit, then a retry with the same key, leaves exactly one code', async () => {
		await sb.control('POST', '/faults', { dropAfterCommitCount: 1 });
		await expect(
			create(urlCode('Flaky network'), { 'Idempotency-Key': 'item-42' }),
		).rejects.toThrow(/socket hang up|ECONNRESET/);
		const committed = (await sb.control('GET', '/qr-codes')).data;
		expect(committed).toHaveLength(1);
		const retry = await create(urlCode('Flaky network'), { 'Idempotency-Key': 'item-42' });
		expect(retry.status).toBe(201);
		expect(retry.body.data.id).toBe(committed[0].id);
		expect(await codeCount()).toBe(1);
		const log = (await sb.control('GET', '/requests')).data;
		expect(log.map((entry) => entry.status)).toEqual([null, 201]);
	});

	test('dropAfterCommitRate 1 drops every create; without a key a retry duplicates', async () => {
		await sb.control('POST', '/faults', { dropAfterCommitRate: 1 });
		await expect(create(urlCode())).rejects.toThrow();
		await expect(create(urlCode())).rejects.toThrow();
		await sb.control('POST', '/faults', { dropAfterCommitRate: 0 });
		expect(await codeCount()).toBe(2);
	});
});

describe('list', () => {
	async function seed() {
		const made = [];
		for (const [name, type, payload] of [
			['Summer flyer', 'url', { url: 'https://example.com/summer' }],
			['Winter flyer', 'url', { url: 'https://example.com/winter' }],
			['Hotline', 'phone', { phone: '+14155550123' }],
		]) {
			made.push((await create({ name, type, payload })).body.data);
		}
		return made;
	}
	const names = (answer) => answer.body.data.map((code) => code.name);

	test('read again after every create, delete and reset (the list is kept between them)', async () => {
		const [summer] = await seed();
		expect(names(await sb.api.get('/qr-codes'))).toEqual([
			'Hotline',
			'Winter flyer',
			'Summer flyer',
		]);
		await create(urlCode('Spring flyer'));
		expect(names(await sb.api.get('/qr-codes'))).toEqual([
			'Spring flyer',
			'Hotline',
			'Winter flyer',
			'Summer flyer',
		]);
		await sb.api.delete(`/qr-codes/${summer.id}`);
		expect(names(await sb.api.get('/qr-codes'))).toEqual([
			'Spring flyer',
			'Hotline',
			'Winter flyer',
		]);
		expect(names(await sb.api.get('/qr-codes?search=flyer'))).toEqual([
			'Spring flyer',
			'Winter flyer',
		]);
		await sb.control('POST', '/reset');
		expect(names(await sb.api.get('/qr-codes'))).toEqual([]);
	});

	test('is newest first with links and meta', async () => {
		await seed();
		const answer = await sb.api.get('/qr-codes');
		expect(answer.status).toBe(200);
		expect(names(answer)).toEqual(['Hotline', 'Winter flyer', 'Summer flyer']);
		expect(answer.body.meta).toEqual({ current_page: 1, last_page: 1, per_page: 25, total: 3 });
		expect(answer.body.links).toEqual({
			first: `${sb.baseUrl}/qr-codes?page=1&per_page=25`,
			last: `${sb.baseUrl}/qr-codes?page=1&per_page=25`,
			prev: null,
			next: null,
		});
	});

	test('filters by search (case-insensitive part of the name), type and archived', async () => {
		const [summer] = await seed();
		expect(names(await sb.api.get('/qr-codes?search=FLYER'))).toEqual([
			'Winter flyer',
			'Summer flyer',
		]);
		expect(names(await sb.api.get('/qr-codes?type=phone'))).toEqual(['Hotline']);
		await sb.control('PATCH', `/qr-codes/${summer.id}`, { archived: true });
		expect(names(await sb.api.get('/qr-codes?archived=true'))).toEqual(['Summer flyer']);
		expect(names(await sb.api.get('/qr-codes?archived=false&search=flyer'))).toEqual([
			'Winter flyer',
		]);
		expect((await sb.api.get(`/qr-codes/${summer.id}`)).body.data.archived).toBe(true);
	});

	test("the control API backdates a code's created_at (and refuses a bad one)", async () => {
		const [summer] = await seed();
		const answer = await sb.control('PATCH', `/qr-codes/${summer.id}`, {
			created_at: '2026-01-02T03:04:05Z',
		});
		expect(answer.data.created_at).toBe('2026-01-02T03:04:05.000Z');
		expect(answer.data.archived).toBe(false);
		expect((await sb.api.get(`/qr-codes/${summer.id}`)).body.data.created_at).toBe(
			'2026-01-02T03:04:05.000Z',
		);
		await expect(
			sb.control('PATCH', `/qr-codes/${summer.id}`, { created_at: '2026-02-30' }),
		).rejects.toMatchObject({ status: 422 });
		await expect(sb.control('PATCH', `/qr-codes/${summer.id}`, {})).rejects.toMatchObject({
			status: 422,
		});
	});

	test('bad filters are 422s naming them', async () => {
		expect((await sb.api.get('/qr-codes?type=nope')).body.errors.type).toBeDefined();
		expect((await sb.api.get('/qr-codes?archived=yes')).body.errors.archived).toBeDefined();
	});

	test('pages through every code exactly once', async () => {
		for (let i = 1; i <= 7; i += 1) await create(urlCode(`Code ${i}`));
		const seen = [];
		let next = `${sb.baseUrl}/qr-codes?per_page=3&search=code`;
		const metas = [];
		while (next) {
			const page = await request(next, {
				headers: { Authorization: `Bearer ${sb.keys.readWrite}` },
			});
			seen.push(...page.body.data.map((code) => code.name));
			metas.push(page.body.meta);
			next = page.body.links.next;
		}
		expect(seen).toEqual(['Code 7', 'Code 6', 'Code 5', 'Code 4', 'Code 3', 'Code 2', 'Code 1']);
		expect(metas.map((meta) => meta.current_page)).toEqual([1, 2, 3]);
		expect(metas[0]).toMatchObject({ last_page: 3, per_page: 3, total: 7 });
		const last = await sb.api.get('/qr-codes?per_page=3&page=3');
		expect(last.body.links.prev).toBe(`${sb.baseUrl}/qr-codes?per_page=3&page=2`);
		expect(last.body.links.last).toBe(`${sb.baseUrl}/qr-codes?per_page=3&page=3`);
		expect((await sb.api.get('/qr-codes?per_page=3&page=9')).body.data).toEqual([]);
	});

	test('per_page above 100 is a 422 on per_page; 100 is fine', async () => {
		const answer = await sb.api.get('/qr-codes?per_page=101');
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['per_page']);
		expect((await sb.api.get('/qr-codes?per_page=100')).status).toBe(200);
	});

	test('page and per_page must be whole numbers from 1', async () => {
		for (const query of ['page=0', 'page=x', 'per_page=0', 'per_page=2.5']) {
			expect((await sb.api.get(`/qr-codes?${query}`)).status).toBe(422);
		}
	});

	test('codes of another workspace are not listed and answer 404', async () => {
		const other = (await sb.basicApi.post('/qr-codes', urlCode('Basic code'))).body.data;
		expect(names(await sb.api.get('/qr-codes'))).not.toContain('Basic code');
		expect((await sb.api.get(`/qr-codes/${other.id}`)).status).toBe(404);
		expect((await sb.api.patch(`/qr-codes/${other.id}`, { name: 'x' })).status).toBe(404);
		expect((await sb.api.delete(`/qr-codes/${other.id}`)).status).toBe(404);
	});
});

describe('update', () => {
	test('changes only the fields sent', async () => {
		const code = (await create({ ...urlCode('Before'), tags: ['keep'] })).body.data;
		await sb.control('POST', '/clock/advance', { seconds: 5 });
		const answer = await sb.api.patch(`/qr-codes/${code.id}`, { name: 'After' });
		expect(answer.status).toBe(200);
		expect(answer.body.data).toMatchObject({
			name: 'After',
			payload: code.payload,
			tags: ['keep'],
			short_url: code.short_url,
		});
		expect(answer.body.data.updated_at > code.updated_at).toBe(true);
		expect(answer.body.data.created_at).toBe(code.created_at);
	});

	test('a new payload replaces the old one and re-points the short link', async () => {
		const code = (await create(urlCode())).body.data;
		const answer = await sb.api.patch(`/qr-codes/${code.id}`, {
			payload: { url: 'https://example.com/new' },
		});
		expect(answer.body.data.destination).toBe('https://example.com/new');
		expect(answer.body.data.short_url).toBe(code.short_url);
	});

	test('a type change is checked against the payload it will have', async () => {
		const code = (await create(urlCode())).body.data;
		const noPayload = await sb.api.patch(`/qr-codes/${code.id}`, { type: 'phone' });
		expect(noPayload.status).toBe(422);
		expect(Object.keys(noPayload.body.errors).sort()).toEqual(['payload.phone', 'payload.url']);
		const answer = await sb.api.patch(`/qr-codes/${code.id}`, {
			type: 'phone',
			payload: { phone: '+14155550123' },
		});
		expect(answer.status).toBe(200);
		expect(answer.body.data).toMatchObject({ type: 'phone', destination: 'tel:+14155550123' });
	});

	test('a payload that does not fit the type is a 422 and changes nothing', async () => {
		const code = (await create(urlCode())).body.data;
		const answer = await sb.api.patch(`/qr-codes/${code.id}`, {
			name: 'New',
			payload: { url: 'nope' },
		});
		expect(answer.status).toBe(422);
		expect(answer.body.errors['payload.url']).toBeDefined();
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data.name).toBe(code.name);
	});

	test('a Pro type cannot be patched in on the Basic plan', async () => {
		const code = (await sb.basicApi.post('/qr-codes', urlCode())).body.data;
		const answer = await sb.basicApi.patch(`/qr-codes/${code.id}`, {
			type: 'menu',
			payload: TYPE_CASES.menu[0],
		});
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['type']);
	});

	test('paused is set and cleared; it must be a boolean', async () => {
		const code = (await create(urlCode())).body.data;
		expect((await sb.api.patch(`/qr-codes/${code.id}`, { paused: true })).body.data).toMatchObject({
			paused: true,
			status: 'active',
		});
		expect((await sb.api.patch(`/qr-codes/${code.id}`, { paused: false })).body.data.paused).toBe(
			false,
		);
		expect(
			(await sb.api.patch(`/qr-codes/${code.id}`, { paused: 'yes' })).body.errors.paused,
		).toBeDefined();
	});

	test('domain and other fields that cannot change are 422s naming them', async () => {
		const code = (await create(urlCode())).body.data;
		const answer = await sb.api.patch(`/qr-codes/${code.id}`, {
			domain: 'localhost:1',
			tags: ['a'],
		});
		expect(answer.status).toBe(422);
		expect(answer.body.errors.domain[0]).toMatch(/cannot be changed after creation/);
		expect(answer.body.errors.tags).toBeDefined();
	});

	test('an unknown id is a 404', async () => {
		expect((await sb.api.patch('/qr-codes/AAAAAAAAAAAA', { name: 'x' })).status).toBe(404);
	});

	test('patchFailures: after patchFailAfter more go through, that many answer 500 and change nothing', async () => {
		const { id } = (await create(urlCode())).body.data;
		await sb.control('POST', '/faults', { patchFailures: 1, patchFailAfter: 1 });
		const rename = async (name) => (await sb.api.patch(`/qr-codes/${id}`, { name })).status;
		const nameNow = async () => (await sb.api.get(`/qr-codes/${id}`)).body.data.name;
		expect([await rename('One'), await rename('Two')]).toEqual([200, 500]);
		expect(await nameNow()).toBe('One');
		expect(await rename('Three')).toBe(200);
		expect(await nameNow()).toBe('Three');
	});
});

describe('delete', () => {
	test('answers 204 with no body; the code is gone from get and list', async () => {
		const code = (await create(urlCode())).body.data;
		const answer = await sb.api.delete(`/qr-codes/${code.id}`);
		expect(answer.status).toBe(204);
		expect(answer.text).toBe('');
		expect((await sb.api.get(`/qr-codes/${code.id}`)).status).toBe(404);
		expect((await sb.api.delete(`/qr-codes/${code.id}`)).status).toBe(404);
		expect((await sb.api.get('/qr-codes')).body.data).toEqual([]);
		const all = (await sb.control('GET', '/qr-codes')).data;
		expect(all).toEqual([expect.objectContaining({ id: code.id, deleted: true })]);
	});
});

describe('events', () => {
	let receiver;
	beforeEach(async () => {
		receiver = await startRecorder();
		await sb.api.post('/webhooks', {
			url: receiver.urlFor('/hook'),
			events: ['qr_code.created', 'qr_code.updated', 'qr_code.deleted'],
		});
	});
	afterEach(() => receiver.close());

	test('create, update and delete emit qr_code.* with the record; a PATCH that changes nothing emits nothing', async () => {
		const code = (await create(urlCode())).body.data;
		await sb.api.patch(`/qr-codes/${code.id}`, { paused: true });
		await sb.api.patch(`/qr-codes/${code.id}`, { paused: true });
		await sb.api.delete(`/qr-codes/${code.id}`);
		await settleDeliveries(sb);
		const types = receiver.records.map((delivery) => delivery.body.type);
		expect(types.sort()).toEqual(['qr_code.created', 'qr_code.deleted', 'qr_code.updated']);
		const { design, ...recordWithoutDesign } = code;
		expect(ofType(receiver, 'qr_code.created')[0].body.data).toEqual(recordWithoutDesign);
		expect(ofType(receiver, 'qr_code.updated')[0].body.data).toMatchObject({
			id: code.id,
			paused: true,
		});
		expect(ofType(receiver, 'qr_code.deleted')[0].body.data).toMatchObject({ id: code.id });
	});

	test('an idempotent replay emits no second qr_code.created', async () => {
		await create(urlCode(), { 'Idempotency-Key': 'evt' });
		await create(urlCode(), { 'Idempotency-Key': 'evt' });
		await settleDeliveries(sb);
		expect(ofType(receiver, 'qr_code.created')).toHaveLength(1);
	});
});
