'use strict';
/**
 * Lists and paging under other readings of what the reference leaves open (list shape, the
 * page size and its maximum): every list the nodes read — Get Many of QR codes, cards, leads
 * and webhook endpoints, the editor's searchable lists, the polling trigger's new leads — reaches
 * every record once, in the API's order, whichever signal (or none) the service gives.
 */
const path = require('node:path');
const { startSandbox } = require('../../dev/sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');
const { runNode, listSearchContext } = require('../engine');
const { DIST } = require('../engine/n8n-core');
const { createWorkflow, poll, POLLING_TYPE } = require('../engine/triggers');

const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));
const { DynamicQrPollingTrigger } = require(
	path.join(DIST, 'nodes/DynamicQr/DynamicQrPollingTrigger.node.js'),
);
const { listSearch } = new DynamicQr().getNodeType().methods;
const { loadOptions } = new DynamicQrPollingTrigger().methods;

const CODES = 250;
const OLD_LEADS = 130;
const NEW_LEADS = 120; // added after the trigger's first poll: 250 leads on the card in all
const ENDPOINTS = 120; // more than one page even at the reference's largest per_page

const READING_SETS = [
	[],
	['per-page-cap-50'],
	['per-page-ignored'],
	['links-next-only'],
	['meta-total-pages'],
	['data-only'],
	['per-page-cap-50', 'data-only'],
	['per-page-cap-50', 'links-next-only'],
	['per-page-ignored', 'data-only'],
	['per-page-ignored', 'links-next-only'],
	['per-page-ignored', 'meta-total-pages'],
	// How a list ends: a page past the end answered 404 or as the last page again, and links
	// without a next key. 250 codes and 250 leads are an exact multiple of 25 and 50 pages.
	['page-past-end-404'],
	['data-only', 'page-past-end-404'],
	['per-page-cap-50', 'data-only', 'page-past-end-404'],
	['per-page-ignored', 'data-only', 'page-past-end-404'],
	['links-without-next'],
	['per-page-cap-50', 'links-without-next'],
	['page-past-end-repeats-last'],
	['data-only', 'page-past-end-repeats-last'],
	['per-page-cap-50', 'data-only', 'page-past-end-repeats-last'],
	['per-page-ignored', 'data-only', 'page-past-end-repeats-last'],
];

/** Follows paginationToken to the end, as the editor does while the user scrolls. */
async function searchToEnd(search, context) {
	const values = [];
	let token;
	for (let calls = 0; calls < 100; calls++) {
		const { results, paginationToken } = await search.call(context, undefined, token);
		values.push(...results.map((item) => item.value));
		if (paginationToken === undefined) return values;
		token = paginationToken;
	}
	throw new Error('the list search never ended');
}

const idsOf = (items) => items.map((item) => item.json.id);

describe.each(READING_SETS.map((names) => [names.join(' + ') || 'the sandbox’s own', names]))(
	'reading %s',
	(_label, readings) => {
		let sandbox;
		const created = { codes: [], oldLeads: [], endpoints: [] };

		const api = async (method, apiPath, body) =>
			(await sandboxClient(sandbox).call(method, apiPath, body)).data;
		const addLeads = async (n, prefix) => {
			const leads = [];
			for (let i = 0; i < n; i++) {
				const body = { name: `${prefix} ${i}`, email: `${prefix}${i}@example.com` };
				leads.push((await sandbox.control('POST', '/leads', body)).data);
			}
			return leads;
		};
		const run = (parameters) =>
			runNode({
				parameters,
				credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
			});
		/** Every page request the node sent to a list, in order. */
		const pageRequests = async (listPath) =>
			(await sandbox.control('GET', '/requests')).data.filter(
				(request) => request.method === 'GET' && request.path === listPath,
			);

		beforeAll(async () => {
			sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 600000, readings });
			for (let i = 0; i < CODES; i++) {
				const payload = { url: `https://example.com/${i}` };
				created.codes.push(
					await api('POST', '/qr-codes', { name: `Code ${i}`, type: 'url', payload }),
				);
			}
			created.oldLeads = await addLeads(OLD_LEADS, 'old');
			for (let i = 0; i < ENDPOINTS; i++) {
				const body = { url: `https://hooks.example.com/${i}`, events: ['scan.created'] };
				created.endpoints.push(await api('POST', '/webhooks', body));
			}
		});
		afterAll(async () => {
			await sandbox?.close();
		});

		const newestFirst = (records) => records.map((record) => record.id).reverse();

		test('QR Code › Get Many: Return All gives all 250 in order; Limit 300 gives the 250; Limit 150 gives 150 and reads no page more', async () => {
			const all = await run({ resource: 'qrCode', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			expect(idsOf(all.items)).toEqual(newestFirst(created.codes));
			const beyond = await run({
				resource: 'qrCode',
				operation: 'getAll',
				returnAll: false,
				limit: 300,
			});
			expect(beyond.error).toBeUndefined();
			expect(idsOf(beyond.items)).toEqual(newestFirst(created.codes));

			const before = (await pageRequests('/qr-codes')).length;
			const limited = await run({
				resource: 'qrCode',
				operation: 'getAll',
				returnAll: false,
				limit: 150,
			});
			expect(limited.error).toBeUndefined();
			expect(idsOf(limited.items)).toEqual(newestFirst(created.codes).slice(0, 150));
			const pages = (await pageRequests('/qr-codes')).slice(before);
			const perPage = Math.min(...pages.map((request) => Number(request.query.per_page)));
			const served = readings.includes('per-page-ignored')
				? 25
				: readings.includes('per-page-cap-50')
					? 50
					: perPage;
			expect(pages).toHaveLength(Math.ceil(150 / served));
		});

		test('Return All reads the pages at once when the answer tells how many, else one after another', async () => {
			const before = (await pageRequests('/qr-codes')).length;
			const all = await run({ resource: 'qrCode', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			const pages = (await pageRequests('/qr-codes'))
				.slice(before)
				.map((r) => Number(r.query.page));
			const served = readings.includes('per-page-ignored')
				? 25
				: readings.includes('per-page-cap-50')
					? 50
					: 100;
			const count = Math.ceil(CODES / served);
			const counted = !readings.includes('links-next-only') && !readings.includes('data-only');
			if (counted) {
				// Page 1, the others in any order, then page 1 again to confirm nothing changed.
				expect(pages[0]).toBe(1);
				expect(pages[pages.length - 1]).toBe(1);
				expect(pages.slice(1, -1).sort((a, b) => a - b)).toEqual(
					Array.from({ length: count - 1 }, (_, i) => i + 2),
				);
			} else {
				// Without a count: in order, up to the page that shows the end (an empty one when the
				// last page is full and nothing says it is the last).
				expect(pages).toEqual(Array.from({ length: pages.length }, (_, i) => i + 1));
				expect(pages.length - count).toBeLessThanOrEqual(1);
			}
		});

		test('Card › Get Many lists the card', async () => {
			const all = await run({ resource: 'card', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			expect(idsOf(all.items)).toEqual([sandbox.cardId]);
		});

		test('Webhook Endpoint › Get Many reads every page', async () => {
			const all = await run({ resource: 'webhookEndpoint', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			expect([...idsOf(all.items)].sort()).toEqual(
				created.endpoints.map((endpoint) => endpoint.id).sort(),
			);
		});

		test('the editor’s list searches page to the end (and the Card options list)', async () => {
			const context = listSearchContext(sandbox);
			expect(await searchToEnd(listSearch.searchQrCodes, context)).toEqual(
				newestFirst(created.codes),
			);
			expect(await searchToEnd(listSearch.searchCards, context)).toEqual([sandbox.cardId]);
			const cardOptions = await loadOptions.getCards.call(context);
			expect(cardOptions.map((option) => option.value)).toEqual([sandbox.cardId]);
			expect((await searchToEnd(listSearch.searchWebhookEndpoints, context)).sort()).toEqual(
				created.endpoints.map((endpoint) => endpoint.id).sort(),
			);
		});

		// Runs after the tests above, which count on 120 endpoints.
		test('Webhook Endpoint › Get Many (Return All, Limit) and its list search also end on a multiple of every page size (200 endpoints)', async () => {
			for (let i = ENDPOINTS; i < 200; i++) {
				const body = { url: `https://hooks.example.com/${i}`, events: ['scan.created'] };
				created.endpoints.push(await api('POST', '/webhooks', body));
			}
			const ids = created.endpoints.map((endpoint) => endpoint.id).sort();
			const all = await run({ resource: 'webhookEndpoint', operation: 'getAll', returnAll: true });
			expect(all.error).toBeUndefined();
			expect([...idsOf(all.items)].sort()).toEqual(ids);
			const limited = await run({
				resource: 'webhookEndpoint',
				operation: 'getAll',
				returnAll: false,
				limit: 250,
			});
			expect(limited.error).toBeUndefined();
			expect([...idsOf(limited.items)].sort()).toEqual(ids);
			const context = listSearchContext(sandbox);
			expect((await searchToEnd(listSearch.searchWebhookEndpoints, context)).sort()).toEqual(ids);
		});

		// The trigger and Lead › Get Many share the card's leads: 130 before activation, 120 after.
		test('New Lead on a Card emits all 120 leads since the last poll; Lead › Get Many gives all 250', async () => {
			const setup = createWorkflow({
				type: POLLING_TYPE,
				parameters: { event: 'newLead', cardId: sandbox.cardId },
				credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
			});
			expect(await poll(setup)).toBeNull(); // the first poll only marks where "new" begins
			const added = await addLeads(NEW_LEADS, 'new');
			const emitted = await poll(setup);
			expect(emitted[0].map((item) => item.json.id)).toEqual(added.map((lead) => lead.id));
			expect(await poll(setup)).toBeNull();

			const leads = await run({
				resource: 'lead',
				operation: 'getAll',
				cardId: { __rl: true, mode: 'id', value: sandbox.cardId },
				returnAll: true,
			});
			expect(leads.error).toBeUndefined();
			expect(idsOf(leads.items)).toEqual(newestFirst([...created.oldLeads, ...added]));
		});
	},
);

describe('reading page-past-end-404: a 404 ends a list only after its first page', () => {
	let sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0, readings: ['data-only', 'page-past-end-404'] });
	});
	afterAll(async () => {
		await sandbox?.close();
	});

	test('a 404 on page 1 is still an error: Lead › Get Many of a card that does not exist', async () => {
		const result = await runNode({
			parameters: {
				resource: 'lead',
				operation: 'getAll',
				cardId: { __rl: true, mode: 'id', value: 'AAAAAAAAAAAA' },
				returnAll: true,
			},
			credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		expect(result.error).toMatchObject({ httpCode: '404' });
	});
});
