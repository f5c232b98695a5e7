'use strict';
// The polling trigger's cursor (polling/cursor.ts), unit level: what counts as new across polls.
const path = require('node:path');

const { DIST } = require('../engine/n8n-core');

const { advance, cutoffMs, OVERLAP_WINDOW_MS } = require(
	path.join(DIST, 'nodes/DynamicQr/polling/cursor.js'),
);

describe('the polling cursor (unit)', () => {
	const at = (ms) => new Date(ms).toISOString();
	const T = Date.parse('2026-01-01T00:00:00.000Z');

	test('records at the same instant as the newest seen, or visible late within the window, come out once', () => {
		const cursor = { key: 'k', recent: [] };
		advance(cursor, [{ id: 'a', created_at: at(T) }], T);
		expect(cutoffMs(cursor)).toBe(T - OVERLAP_WINDOW_MS);
		// "b" shares a's timestamp and "late" is older than a but only now visible
		const page = [
			{ id: 'c', created_at: at(T + 5) },
			{ id: 'b', created_at: at(T) },
			{ id: 'a', created_at: at(T) },
			{ id: 'late', created_at: at(T - 1000) },
		];
		expect(advance(cursor, page, T).map((r) => r.id)).toEqual(['late', 'b', 'c']);
		expect(advance(cursor, page, T)).toEqual([]);
		expect(cursor.newestMs).toBe(T + 5);
	});

	test('ids older than the window are forgotten, and the next query excludes them', () => {
		const cursor = { key: 'k', recent: [] };
		advance(cursor, [{ id: 'old', created_at: at(T) }], T);
		advance(cursor, [{ id: 'new', created_at: at(T + OVERLAP_WINDOW_MS + 1) }], T);
		expect(cursor.recent.map(([id]) => id)).toEqual(['new']);
		expect(cutoffMs(cursor)).toBe(T + 1); // "old" (at T) is before the next query's lower bound
	});

	test('a record without a readable created_at is emitted once', () => {
		const cursor = { key: 'k', recent: [] };
		expect(advance(cursor, [{ id: 'x', created_at: 'garbage' }], T).map((r) => r.id)).toEqual([
			'x',
		]);
		expect(advance(cursor, [{ id: 'x', created_at: 'garbage' }], T)).toEqual([]);
	});
});
