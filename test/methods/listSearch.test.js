'use strict';
/**
 * The resource locators' searchable lists, called the way n8n's editor calls them: through
 * n8n-core's LoadOptionsContext, with the credential applied, against the sandbox.
 */
const path = require('node:path');
const { DIST } = require('../engine/n8n-core');
const { listSearchContext } = require('../engine');
const { startSandbox } = require('../../dev/sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');

const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));
const nodeType = new DynamicQr().getNodeType();

const { listSearch } = nodeType.methods;

describe('searchable lists', () => {
	let sandbox;
	let context;
	const api = async (method, apiPath, body) =>
		(await sandboxClient(sandbox).call(method, apiPath, body)).data;

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		context = listSearchContext(sandbox);
		for (let index = 0; index < 55; index++) {
			await api('POST', '/qr-codes', {
				name: `Poster ${index}`,
				type: 'url',
				payload: { url: `https://example.com/${index}` },
			});
		}
		await api('POST', '/qr-codes', {
			name: 'Menu board',
			type: 'url',
			payload: { url: 'https://example.com/menu' },
		});
		await api('POST', '/webhooks', {
			url: 'https://hooks.example.com/scans',
			events: ['scan.created'],
		});
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('pages through the QR codes, newest first, with dashboard links', async () => {
		const first = await listSearch.searchQrCodes.call(context);
		expect(first.results).toHaveLength(50);
		expect(first.results[0]).toEqual({
			name: 'Menu board (url)',
			value: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
			url: `${sandbox.siteUrl}/qr-codes/${first.results[0].value}`,
		});
		// The next page, the page size, and the id the page began with (to know it if it comes again).
		expect(first.paginationToken).toBe(`2:50:${first.results[0].value}`);
		const second = await listSearch.searchQrCodes.call(context, undefined, first.paginationToken);
		expect(second.results).toHaveLength(6);
		expect(second.paginationToken).toBeUndefined();
		const ids = new Set([...first.results, ...second.results].map((item) => item.value));
		expect(ids.size).toBe(56);
	});

	it('searches QR codes by name at the service', async () => {
		const found = await listSearch.searchQrCodes.call(context, 'menu');
		expect(found.results.map((item) => item.name)).toEqual(['Menu board (url)']);
		const requests = (await sandbox.control('GET', '/requests')).data;
		expect(requests.at(-1)).toMatchObject({
			path: '/qr-codes',
			query: { search: 'menu', per_page: '50', page: '1' },
		});
	});

	it('lists cards with their dashboard links', async () => {
		const { results } = await listSearch.searchCards.call(context);
		expect(results).toEqual([
			expect.objectContaining({
				value: sandbox.cardId,
				url: `${sandbox.siteUrl}/cards/${sandbox.cardId}`,
			}),
		]);
	});

	it('the "open" links lead to the dashboard page of the record, which the sandbox serves', async () => {
		const [code] = (await listSearch.searchQrCodes.call(context, 'menu')).results;
		const [card] = (await listSearch.searchCards.call(context)).results;
		for (const [item, name] of [
			[code, 'Menu board'],
			[card, 'Sandbox Card'],
		]) {
			const page = await fetch(item.url);
			expect(page.status).toBe(200);
			expect(await page.text()).toContain(`<h1>${name}</h1>`);
		}
	});

	it('lists webhook endpoints by URL and events', async () => {
		const { results } = await listSearch.searchWebhookEndpoints.call(context, 'hooks.example');
		expect(results).toEqual([
			{
				name: 'https://hooks.example.com/scans (scan.created)',
				value: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
			},
		]);
	});

	it('a filter the service cannot apply goes over the whole list at once, not page by page', async () => {
		const special = [];
		for (let index = 0; index < 120; index++) {
			const name = index % 50 === 7 ? 'special' : 'plain';
			const endpoint = await api('POST', '/webhooks', {
				url: `https://many.example.com/${name}/${index}`,
				events: ['lead.created'],
			});
			if (name === 'special') special.push(endpoint.id);
		}
		const found = await listSearch.searchWebhookEndpoints.call(context, 'SPECIAL');
		expect(found.results.map((item) => item.value).sort()).toEqual([...special].sort());
		expect(found.paginationToken).toBeUndefined();
	});
});
