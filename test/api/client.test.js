'use strict';
/**
 * The one list reader (api/paging.ts) through the client (client.read, client.all) on its own rules, unit level: the built ApiClient with a
 * stubbed n8n serving a newest-first list that the test changes between requests. A poll's share
 * ends a read with a position; the next read goes on from it and misses nothing that existed
 * throughout, whatever was created or deleted meanwhile; a client with a pace keeps to its share
 * of the plan by spacing its requests (the webhook trigger's catch-up).
 */
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

const { ApiClient } = require(path.join(DIST, 'nodes/DynamicQr/api/client.js'));

const BASE = 'https://qr.example.com/api/v1';

/** A list of `count` records, newest first, served 100 a page with `meta.total`; requests recorded. */
function listService(count, { limit = 6000 } = {}) {
	let made = 0;
	const list = [];
	const create = () => {
		made++;
		const at = new Date(Date.UTC(2026, 0, 1) + made * 1000).toISOString();
		list.unshift({ id: `r${made}`, created_at: at });
	};
	for (let i = 0; i < count; i++) create();
	const requests = [];
	const answer = async (request) => {
		requests.push({ at: Date.now(), page: request.qs.page });
		const perPage = request.qs.per_page;
		const from = (request.qs.page - 1) * perPage;
		return {
			statusCode: 200,
			headers: { 'x-ratelimit-limit': String(limit), 'x-ratelimit-remaining': String(limit - 1) },
			body: {
				data: list.slice(from, from + perPage),
				meta: {
					total: list.length,
					per_page: perPage,
					last_page: Math.ceil(list.length / perPage),
				},
			},
		};
	};
	const ctx = {
		getNode: () => ({ name: 'Dynamic QR', type: 'n8n-nodes-dynamic-qr.dynamicQr' }),
		getCredentials: async () => ({ apiKey: 'secret-key', baseUrl: BASE }),
		helpers: {
			httpRequestWithAuthentication: async (_name, request) => answer(request),
			httpRequest: answer,
		},
	};
	return {
		ctx,
		list,
		requests,
		create,
		/** Deletes the records at list positions [from, to). */
		remove: (from, to) => list.splice(from, to - from),
	};
}

/** Half of 10 requests a minute, a minute after the last poll: 5 requests, page 1 included. */
const SHARE = { sharePercent: 50, planLimit: 10, sinceLastPollMs: 60_000 };
const ids = (records) => records.map((record) => record.id);

describe('a read within a share, resumed', () => {
	test('the share ends a read with the position after the last page read', async () => {
		const service = listService(1000);
		const result = await new ApiClient(service.ctx).read({ path: '/qr-codes', share: SHARE });
		expect(service.requests.map((request) => request.page)).toEqual([1, 2, 3, 4, 5]);
		expect(ids(result.records)).toEqual(ids(service.list.slice(0, 500)));
		expect(result.next).toMatchObject({ page: 6, afterId: service.list[499].id, total: 1000 });
	});

	test('deletions before the position and creations meanwhile: the reads that follow step back and miss nothing', async () => {
		const service = listService(1000);
		const read = (from) =>
			new ApiClient(service.ctx).read({ path: '/qr-codes', share: SHARE, from });
		const seen = new Set();
		let result = await read();
		ids(result.records).forEach((id) => seen.add(id));
		const untouched = new Set(ids(service.list));
		// 150 records the read has passed go (the rest move up past the position), 30 are new.
		for (const record of service.remove(300, 450)) untouched.delete(record.id);
		for (let i = 0; i < 30; i++) service.create();
		let reads = 1;
		while (result.next) {
			const before = service.requests.length;
			result = await read(result.next);
			expect(service.requests.length - before).toBeLessThanOrEqual(5);
			ids(result.records).forEach((id) => seen.add(id));
			if (reads++ % 2 === 0) service.remove(700, 710); // and ten more go ahead of it now and then
			expect(reads).toBeLessThan(20);
		}
		const kept = ids(service.list).filter((id) => untouched.has(id));
		expect(kept.filter((id) => !seen.has(id))).toEqual([]);
	});

	test('one deleted behind the position: the read steps back a page, and the read after it goes on from there to the end', async () => {
		const service = listService(1000);
		const read = (from) =>
			new ApiClient(service.ctx).read({ path: '/qr-codes', share: SHARE, from });
		const first = await read();
		service.remove(700, 701); // page 6 no longer shows what follows the last record taken
		const second = await read(first.next);
		expect(second.next).toMatchObject({ page: 5, afterId: first.next.afterId });
		// Page 5 holds nothing new (it ends with the last record taken): the read goes on past it.
		const third = await read(second.next);
		expect(third.records.map((record) => record.id)).toContain(service.list[500].id);
		expect(third.next).toMatchObject({ page: 9 });
	});

	test('a list now shorter than the position: the page past its end steps back instead of ending the read', async () => {
		const service = listService(1000);
		const read = (from) =>
			new ApiClient(service.ctx).read({ path: '/qr-codes', share: SHARE, from });
		let result = await read();
		service.remove(0, 600); // the 500 read and 100 more: 400 left, page 6 is past the end
		const left = ids(service.list);
		const seen = new Set();
		do {
			result = await read(result.next);
			ids(result.records).forEach((id) => seen.add(id));
		} while (result.next && seen.size < 1000);
		expect(service.requests[6]).toMatchObject({ page: 6 });
		expect(left.filter((id) => !seen.has(id))).toEqual([]);
	});
});

describe('the catch-up keeps to a share of the plan by pace', () => {
	const gaps = (requests) => requests.slice(1).map((request, i) => request.at - requests[i].at);

	test('at half a plan of 600 a minute, requests leave 200 ms apart; the whole list is read', async () => {
		// The clock is jest's, so the service and the pace read the same time and a busy machine
		// cannot fire a timer late (a late timer shortens the gap after it).
		jest.useFakeTimers();
		try {
			const service = listService(450, { limit: 600 });
			const client = new ApiClient(service.ctx, { pace: { sharePercent: 50 } });
			let records;
			client.all('/qr-codes').then((all) => (records = all));
			while (!records) await jest.advanceTimersByTimeAsync(10);
			expect(records).toHaveLength(450);
			// Page 1, pages 2–5 at once, page 1 again to confirm.
			expect(service.requests).toHaveLength(6);
			expect(gaps(service.requests)).toEqual([200, 200, 200, 200, 200]);
		} finally {
			jest.useRealTimers();
		}
	});

	test('without a pace the same pages leave together', async () => {
		const service = listService(450, { limit: 600 });
		await new ApiClient(service.ctx).all('/qr-codes');
		expect(Math.min(...gaps(service.requests))).toBeLessThan(100);
	});
});
