'use strict';

const { useSandbox, ofType, settleDeliveries, USER_AGENTS } = require('./helpers');
const { request } = require('../client');
const { startRecorder } = require('../../http-recorder');

const sb = useSandbox();

let receiver;
beforeAll(async () => {
	receiver = await startRecorder();
});
afterAll(() => receiver.close());
beforeEach(async () => {
	receiver.records.length = 0;
	await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events: ['scan.created'] });
});
afterEach(() => sb.control('POST', '/reset'));

const createCode = async (
	body = { type: 'url', name: 'Menu card', payload: { url: 'https://example.com/menu' } },
) => (await sb.api.post('/qr-codes', body)).body.data;
const visit = (url, headers = {}) => request(url, { headers });
const scansOf = async (id, query = '') =>
	(await sb.api.get(`/qr-codes/${id}/scans${query}`)).body.data;

describe('short links', () => {
	test('a scan answers 302 to the destination and is recorded with parsed details', async () => {
		const code = await createCode();
		const answer = await visit(code.short_url, {
			'User-Agent': USER_AGENTS.iphoneSafari,
			'Accept-Language': 'de-DE,de;q=0.9,en;q=0.8',
			'X-Sandbox-Country': 'de',
			'X-Sandbox-City': 'Berlin',
		});
		expect(answer.status).toBe(302);
		expect(answer.headers.location).toBe('https://example.com/menu');
		expect(answer.headers['cache-control']).toBe('no-store');

		const after = (await sb.api.get(`/qr-codes/${code.id}`)).body.data;
		expect(after.scans).toBe(1);
		expect(after.last_scanned_at).toMatch(/Z$/);

		await settleDeliveries(sb);
		expect(ofType(receiver, 'scan.created')).toHaveLength(1);
		const event = ofType(receiver, 'scan.created')[0].body;
		expect(event).toMatchObject({
			id: expect.stringMatching(/^evt_/),
			type: 'scan.created',
			created_at: expect.any(String),
		});
		expect(event.data).toEqual({
			qr_code: { id: code.id, name: 'Menu card', type: 'url' },
			short_url: code.short_url,
			scanned_at: after.last_scanned_at,
			country: 'DE',
			city: 'Berlin',
			device: 'mobile',
			os: 'iOS',
			browser: 'Safari',
			language: 'de',
			referrer: null,
			variant: null,
		});
		expect(JSON.stringify(event)).not.toMatch(/127\.0\.0\.1"|\bip\b/i);
	});

	test('without place headers the scan is placed in the default city; a referrer makes the origin "link"', async () => {
		const code = await createCode();
		await visit(code.short_url, {
			'User-Agent': USER_AGENTS.windowsEdge,
			Referer: 'https://news.example.com/post',
		});
		await visit(code.short_url, { 'User-Agent': USER_AGENTS.androidChrome });
		const stats = await scansOf(code.id);
		expect(stats.total).toBe(2);
		expect(stats.breakdowns.country).toEqual([{ value: 'US', scans: 2 }]);
		expect(stats.breakdowns.city).toEqual([{ value: 'New York', scans: 2 }]);
		expect(stats.breakdowns.origin).toEqual([
			{ value: 'link', scans: 1 },
			{ value: 'qr', scans: 1 },
		]);
		expect(stats.breakdowns.browser).toEqual([
			{ value: 'Chrome', scans: 1 },
			{ value: 'Edge', scans: 1 },
		]);
		expect(stats.breakdowns.os).toEqual([
			{ value: 'Android', scans: 1 },
			{ value: 'Windows', scans: 1 },
		]);
		expect(stats.breakdowns.device).toEqual([
			{ value: 'desktop', scans: 1 },
			{ value: 'mobile', scans: 1 },
		]);
		await settleDeliveries(sb);
		const referrers = ofType(receiver, 'scan.created').map(
			(delivery) => delivery.body.data.referrer,
		);
		expect(referrers.sort()).toEqual(['https://news.example.com/post', null].sort());
	});

	test.each([
		'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
		'facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)',
		'Slackbot-LinkExpanding 1.0 (+https://api.slack.com/robots)',
		'Twitterbot/1.0',
		'WhatsApp/2.23.20.0 A',
		'TelegramBot (like TwitterBot)',
		'Mozilla/5.0 (compatible; Discordbot/2.0; +https://discordapp.com)',
		'LinkedInBot/1.0 (compatible; Mozilla/5.0; Apache-HttpClient +http://www.linkedin.com)',
		'Mozilla/5.0 (compatible; SomeCrawler/1.0)',
		'Mozilla/5.0 (compatible; Yahoo! Slurp; spider)',
		'SkypeUriPreview Preview/0.5',
	])('a bot or link preview is redirected but not recorded: %s', async (userAgent) => {
		const code = await createCode();
		const answer = await visit(code.short_url, { 'User-Agent': userAgent });
		expect(answer.status).toBe(302);
		expect(answer.headers.location).toBe('https://example.com/menu');
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data.scans).toBe(0);
		await settleDeliveries(sb);
		expect(ofType(receiver, 'scan.created')).toHaveLength(0);
	});

	test('a HEAD request (a link checker) is redirected but not recorded', async () => {
		const code = await createCode();
		const answer = await request(code.short_url, {
			method: 'HEAD',
			headers: { 'User-Agent': USER_AGENTS.iphoneSafari },
		});
		expect(answer.status).toBe(302);
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data.scans).toBe(0);
	});

	test('a paused code shows a paused page with 200 and records nothing', async () => {
		const code = await createCode();
		await sb.api.patch(`/qr-codes/${code.id}`, { paused: true });
		const answer = await visit(code.short_url, { 'User-Agent': USER_AGENTS.iphoneSafari });
		expect(answer.status).toBe(200);
		expect(answer.headers['content-type']).toMatch(/^text\/html/);
		expect(answer.text).toMatch(/paused/i);
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data.scans).toBe(0);
	});

	test('a deleted code and an unknown slug show a 404 not-found page', async () => {
		const code = await createCode();
		await sb.api.delete(`/qr-codes/${code.id}`);
		for (const url of [code.short_url, `${sb.siteUrl}/s/nothing`]) {
			const answer = await visit(url);
			expect(answer.status).toBe(404);
			expect(answer.headers['content-type']).toMatch(/^text\/html/);
			expect(answer.text).toMatch(/does not exist/);
		}
	});

	test('an app_store code sends iOS to the App Store, Android to Google Play, others to the fallback', async () => {
		const payload = {
			ios_url: 'https://apps.apple.com/app/id1',
			android_url: 'https://play.google.com/store/apps/details?id=x',
			fallback_url: 'https://example.com/app',
		};
		const code = await createCode({ type: 'app_store', name: 'App', payload });
		expect(
			(await visit(code.short_url, { 'User-Agent': USER_AGENTS.iphoneSafari })).headers.location,
		).toBe(payload.ios_url);
		expect(
			(await visit(code.short_url, { 'User-Agent': USER_AGENTS.ipadSafari })).headers.location,
		).toBe(payload.ios_url);
		expect(
			(await visit(code.short_url, { 'User-Agent': USER_AGENTS.androidChrome })).headers.location,
		).toBe(payload.android_url);
		expect(
			(await visit(code.short_url, { 'User-Agent': USER_AGENTS.macFirefox })).headers.location,
		).toBe(payload.fallback_url);
	});

	test('link_bio, event and coupon lead to a page the sandbox serves', async () => {
		const bio = await createCode({
			type: 'link_bio',
			name: 'Bio',
			payload: { title: 'My <links>', links: [{ title: 'Shop', url: 'https://shop.example.com' }] },
		});
		const event = await createCode({
			type: 'event',
			name: 'Ev',
			payload: { title: 'Launch', starts_at: '2030-05-01T18:00:00Z' },
		});
		const coupon = await createCode({
			type: 'coupon',
			name: 'Co',
			payload: { title: 'Deal', code: 'SAVE10' },
		});
		const redirect = await visit(bio.short_url);
		expect(redirect.headers.location).toBe(`${sb.siteUrl}/p/${bio.id}`);
		const bioPage = await visit(redirect.headers.location);
		expect(bioPage.status).toBe(200);
		expect(bioPage.text).toContain('My &lt;links&gt;');
		expect(bioPage.text).toContain('href="https://shop.example.com"');
		expect((await visit(event.destination)).text).toContain('2030-05-01T18:00:00Z');
		expect((await visit(coupon.destination)).text).toContain('SAVE10');
		await sb.api.delete(`/qr-codes/${coupon.id}`);
		expect((await visit(coupon.destination)).status).toBe(404);
	});

	test('the card short link leads to the card page', async () => {
		const card = (await sb.api.get(`/cards/${sb.cardId}`)).body.data;
		const answer = await visit(card.short_url);
		expect(answer.status).toBe(302);
		expect(answer.headers.location).toBe(card.page_url);
		expect((await visit(card.page_url)).status).toBe(200);
	});
});

describe('control POST /scans', () => {
	test('records a scan with the given details and emits scan.created', async () => {
		const code = await createCode();
		const { data } = await sb.control('POST', '/scans', {
			qr_code_id: code.id,
			country: 'FR',
			city: 'Paris',
			user_agent: USER_AGENTS.androidChrome,
			language: 'fr',
			referrer: 'https://ref.example.com',
		});
		expect(data).toMatchObject({
			qr_code_id: code.id,
			country: 'FR',
			city: 'Paris',
			device: 'mobile',
			os: 'Android',
			browser: 'Chrome',
			language: 'fr',
			referrer: 'https://ref.example.com',
			origin: 'link',
		});
		await settleDeliveries(sb);
		expect(ofType(receiver, 'scan.created')[0].body.data).toMatchObject({
			country: 'FR',
			city: 'Paris',
			referrer: 'https://ref.example.com',
		});
	});

	test('a bot user agent or a paused code records nothing; an unknown code is a 404', async () => {
		const code = await createCode();
		expect(
			await sb.control('POST', '/scans', { qr_code_id: code.id, user_agent: 'Googlebot/2.1' }),
		).toEqual({ data: null });
		await sb.api.patch(`/qr-codes/${code.id}`, { paused: true });
		expect(await sb.control('POST', '/scans', { qr_code_id: code.id })).toEqual({ data: null });
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data.scans).toBe(0);
		await expect(
			sb.control('POST', '/scans', { qr_code_id: 'AAAAAAAAAAAA' }),
		).rejects.toMatchObject({ status: 404 });
	});
});

describe('GET /qr-codes/{id}/scans', () => {
	test('counts per day, zero-filled, within from/to, with the 7 breakdowns', async () => {
		const code = await createCode();
		for (const scannedAt of [
			'2030-01-02T10:00:00Z',
			'2030-01-02T23:59:59Z',
			'2030-01-04T00:00:00Z',
			'2030-01-09T12:00:00Z',
		]) {
			await sb.control('POST', '/scans', {
				qr_code_id: code.id,
				scanned_at: scannedAt,
				country: 'GB',
				city: 'London',
			});
		}
		const stats = await scansOf(code.id, '?from=2030-01-01&to=2030-01-05');
		expect(stats).toEqual({
			from: '2030-01-01',
			to: '2030-01-05',
			total: 3,
			days: [
				{ date: '2030-01-01', scans: 0 },
				{ date: '2030-01-02', scans: 2 },
				{ date: '2030-01-03', scans: 0 },
				{ date: '2030-01-04', scans: 1 },
				{ date: '2030-01-05', scans: 0 },
			],
			breakdowns: {
				country: [{ value: 'GB', scans: 3 }],
				city: [{ value: 'London', scans: 3 }],
				device: [{ value: 'desktop', scans: 3 }],
				os: [{ value: 'Other', scans: 3 }],
				browser: [{ value: 'Other', scans: 3 }],
				language: [{ value: 'unknown', scans: 3 }],
				origin: [{ value: 'qr', scans: 3 }],
			},
		});
		expect((await sb.api.get(`/qr-codes/${code.id}`)).body.data).toMatchObject({
			scans: 4,
			last_scanned_at: '2030-01-09T12:00:00.000Z',
		});
	});

	test('defaults to the last 30 days up to today', async () => {
		const code = await createCode();
		await visit(code.short_url);
		const stats = await scansOf(code.id);
		expect(stats.days).toHaveLength(30);
		expect(stats.to).toBe(new Date().toISOString().slice(0, 10));
		expect(stats.days[29]).toEqual({ date: stats.to, scans: 1 });
		expect(stats.total).toBe(1);
	});

	test.each([
		['from=2030-13-01', 'from'],
		['to=yesterday', 'to'],
		['from=2030-02-30', 'from'],
		['from=2030-01-05&to=2030-01-01', 'from'],
		['from=2020-01-01&to=2030-01-01', 'from'],
	])('%s is a 422 on %s', async (query, field) => {
		const code = await createCode();
		const answer = await sb.api.get(`/qr-codes/${code.id}/scans?${query}`);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});

	test('an unknown code is a 404', async () => {
		expect((await sb.api.get('/qr-codes/AAAAAAAAAAAA/scans')).status).toBe(404);
	});
});
