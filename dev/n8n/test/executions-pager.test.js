'use strict';
/**
 * The REST client's executions() against a stand-in for n8n's `GET /rest/executions`, modelled on
 * n8n's own code: 2.41.1 (dist/executions/execution-list-v1.service.js, parse-range-query
 * middleware, @n8n/db's ExecutionRepository.toQueryBuilder) sorts a page by start time but pages
 * by id (`id < cursor`), refuses `limit` > 100 and `firstId`/`lastId`; 2.40 and 1.x page by id.
 * The executions start in another order than their ids (as a worker running several at once
 * starts them), which is what makes 2.41's cursor pages repeat and skip executions.
 */
const http = require('node:http');

const { createRestClient } = require('../rest-client');

const COUNT = 250;
const base = Date.parse('2026-11-23T12:00:00.000Z');
/** Ids 1..COUNT; each started a little after the one before, except that neighbours swap. */
const executions = Array.from({ length: COUNT }, (_, index) => {
	const id = index + 1;
	const slot = id % 2 ? id + 1 : id - 1;
	return {
		id: String(id),
		workflowId: '7',
		mode: 'webhook',
		status: 'success',
		createdAt: new Date(base + id * 10).toISOString(),
		startedAt: new Date(base + slot * 10 + 5).toISOString(),
		stoppedAt: new Date(base + slot * 10 + 9).toISOString(),
	};
});

function answer241(query) {
	if (query.has('firstId') || query.has('lastId'))
		return [400, { message: 'Use cursor to load execution pages' }];
	const limit = Number(query.get('limit') ?? 20);
	if (limit > 100) return [400, { message: 'Execution limit must be between 1 and 100' }];
	const filter = JSON.parse(query.get('filter') ?? '{}');
	const cursor = query.get('cursor')
		? JSON.parse(Buffer.from(query.get('cursor'), 'base64url').toString()).v1
		: undefined;
	const startOf = (execution) => execution.startedAt ?? execution.createdAt;
	const rows = executions
		.filter((execution) => execution.workflowId === filter.workflowId)
		.filter((execution) => !filter.startedBefore || execution.startedAt <= filter.startedBefore)
		.filter((execution) => !cursor || Number(execution.id) < Number(cursor.id))
		.sort((a, b) => startOf(b).localeCompare(startOf(a)) || Number(b.id) - Number(a.id))
		.slice(0, limit);
	const last = rows.at(-1);
	const nextCursor =
		rows.length < limit
			? null
			: Buffer.from(
					JSON.stringify({ version: 1, v1: { id: last.id, timestamp: startOf(last) } }),
				).toString('base64url');
	return [200, { data: { results: rows, count: COUNT, estimated: false, nextCursor } }];
}

function answer240(query) {
	const limit = Math.min(Number(query.get('limit') ?? 20), 100);
	const lastId = Number(query.get('lastId') ?? Infinity);
	const rows = executions
		.filter((execution) => Number(execution.id) < lastId)
		.sort((a, b) => Number(b.id) - Number(a.id))
		.slice(0, limit);
	return [200, { data: { results: rows, count: COUNT, estimated: false } }];
}

async function fakeN8n(answer) {
	const server = http.createServer((req, res) => {
		const url = new URL(req.url, 'http://127.0.0.1');
		const [status, body] = answer(url.searchParams);
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(body));
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	return {
		url: `http://127.0.0.1:${server.address().port}`,
		close: () => new Promise((resolve) => server.close(resolve)),
	};
}

const allIdsNewestFirst = executions.map((execution) => execution.id).reverse();

describe.each([
	['2.41.1', 2, answer241],
	['2.40.7', 2, answer240],
])('executions() against n8n %s', (version, major, answer) => {
	let n8n;
	beforeAll(async () => {
		n8n = await fakeN8n(answer);
	});
	afterAll(() => n8n.close());

	test(`lists each of ${COUNT} executions once, newest first`, async () => {
		const client = createRestClient({ url: n8n.url, major });
		const list = await client.executions('7');
		expect(list.map((execution) => execution.id)).toEqual(allIdsNewestFirst);
	});

	test('stops at `limit`', async () => {
		const client = createRestClient({ url: n8n.url, major });
		const list = await client.executions('7', { limit: 130 });
		expect(list).toHaveLength(130);
		expect(new Set(list.map((execution) => execution.id)).size).toBe(130);
	});
});

test('the stand-in reproduces 2.41.1: following its nextCursor repeats executions', async () => {
	const pages = [];
	let cursor;
	do {
		const query = new URLSearchParams({ filter: '{"workflowId":"7"}', limit: '100' });
		if (cursor) query.set('cursor', cursor);
		const { data } = answer241(query)[1];
		pages.push(...data.results.map((execution) => execution.id));
		cursor = data.nextCursor;
	} while (cursor);
	expect(pages.length).toBeGreaterThan(new Set(pages).size);
});
