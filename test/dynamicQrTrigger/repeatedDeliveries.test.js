'use strict';
/**
 * Repeated deliveries across n8n processes, at the level of the trigger's delivery record: each
 * "process" is a separate load of the built module (its own memory), and the "database" is the
 * trigger's static data as n8n stores it, a JSON copy loaded before and saved whole after each
 * request.
 */
const path = require('node:path');

const MODULE = path.join(__dirname, '..', '..', 'dist', 'nodes', 'DynamicQrTrigger', 'delivery.js');
const TRIGGER = 'workflow-1\u0000trigger-node';

/** A fresh n8n process: the module loaded anew, so nothing is remembered in memory. */
function newProcess() {
	let loaded;
	jest.isolateModules(() => {
		loaded = require(MODULE);
	});
	return loaded;
}

/** The workflow's static data column: loaded as a copy for a request, saved whole after it. */
function database() {
	let column = '{}';
	return {
		load: () => JSON.parse(column),
		save: (copy) => {
			column = JSON.stringify(copy);
		},
	};
}

/**
 * One webhook request: load, check (and record), save when n8n would (the copy changed). True
 * when the delivery started the workflow.
 */
function handle(processModule, db, webhookId, now = Date.now()) {
	const copy = db.load();
	const before = JSON.stringify(copy);
	const repeat = processModule.isRepeatDelivery(copy, TRIGGER, webhookId, now);
	if (JSON.stringify(copy) !== before) db.save(copy);
	return !repeat;
}

test('a delivery repeated at another processor, or after a restart, is dropped', () => {
	const db = database();
	const first = newProcess();
	expect(handle(first, db, 'evt_1')).toBe(true);
	expect(handle(newProcess(), db, 'evt_1')).toBe(false);
	expect(handle(first, db, 'evt_1')).toBe(false);
	expect(handle(newProcess(), db, 'evt_2')).toBe(true);
});

test('an id lost to a concurrent save of another processor returns with that processor’s next save', () => {
	const db = database();
	const a = newProcess();
	const b = newProcess();
	// A and B load the same copy at the same moment; B saves last and drops A's record.
	const copyA = db.load();
	const copyB = db.load();
	expect(a.isRepeatDelivery(copyA, TRIGGER, 'evt_a', Date.now())).toBe(false);
	db.save(copyA);
	expect(b.isRepeatDelivery(copyB, TRIGGER, 'evt_b', Date.now())).toBe(false);
	db.save(copyB);
	expect(Object.keys(db.load().deliveries)).toEqual(['evt_b']);
	// A's next request, even a repeat it drops, writes its own record back.
	expect(handle(a, db, 'evt_b')).toBe(false);
	expect(Object.keys(db.load().deliveries).sort()).toEqual(['evt_a', 'evt_b']);
	expect(handle(b, db, 'evt_a')).toBe(false);
});

test('a request that adds nothing leaves the stored copy as it was (n8n saves nothing)', () => {
	const db = database();
	const a = newProcess();
	expect(handle(a, db, 'evt_1')).toBe(true);
	const copy = db.load();
	const before = JSON.stringify(copy);
	expect(a.isRepeatDelivery(copy, TRIGGER, 'evt_1', Date.now())).toBe(true);
	expect(JSON.stringify(copy)).toBe(before);
});

test('ids expire after 24 hours; at most 2000 are kept, the oldest dropped', () => {
	const db = database();
	const processModule = newProcess();
	const start = Date.parse('2030-01-01T00:00:00Z');
	expect(handle(processModule, db, 'evt_old', start)).toBe(true);
	expect(handle(newProcess(), db, 'evt_old', start + 23 * 3600 * 1000)).toBe(false);
	expect(handle(newProcess(), db, 'evt_old', start + 25 * 3600 * 1000)).toBe(true);

	const many = newProcess();
	for (let index = 0; index < 2100; index += 1) handle(many, db, `evt_${index}`, start + index);
	const kept = Object.keys(db.load().deliveries);
	expect(kept).toHaveLength(2000);
	expect(kept).not.toContain('evt_0');
	expect(kept).toContain('evt_2099');
});
