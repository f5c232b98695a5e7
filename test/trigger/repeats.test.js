'use strict';
/**
 * Repeated deliveries across n8n processes, at the level of the trigger's delivery record: each
 * "process" is a separate load of the built module (its own memory), and the "database" is the
 * trigger's static data as n8n stores it, a JSON copy loaded before and saved whole after each
 * request.
 */
const { isRecorded, ENTRY_LENGTH } = require('../support/delivery-record');
const { loadInNewProcess } = require('../support/new-process');

const TRIGGER = 'workflow-1\u0000trigger-node';

/** A fresh n8n process: nothing is remembered in memory. */
const newProcess = () => loadInNewProcess('trigger/repeats.js');

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

/** Which of these ids the stored record holds. */
function recorded(db, ids, now = Date.now()) {
	return ids.filter((id) => isRecorded(db.load(), id, now));
}

/** Entries in the stored record (fixed width). */
const entryCount = (db) => (db.load().deliveries ?? '').length / ENTRY_LENGTH;

/**
 * What the trigger does with the static data n8n hands it: checks the delivery against the
 * stored record and stores the record given back when it changed. True for a repeat.
 */
function recordIn(processModule, staticData, webhookId, now = Date.now()) {
	const stored = staticData.deliveries ?? '';
	const { repeat, record } = processModule.recordDelivery(stored, TRIGGER, [webhookId], now);
	if (record() !== stored) staticData.deliveries = record();
	return repeat;
}

/**
 * One webhook request in n8n 2.x's order, in two steps: `load()` loads a copy and checks (and
 * records) the delivery; `save()` starts the workflow (n8n reads the answer), saves when the
 * record changed (n8n saves changed static data) and answers 2xx. `save` is true when the
 * delivery started the workflow.
 */
function request(processModule, db, webhookId, now = Date.now()) {
	const copy = db.load();
	const before = copy.deliveries ?? '';
	const delivery = processModule.recordDelivery(before, TRIGGER, [webhookId], now);
	return {
		repeat: delivery.repeat,
		save() {
			if (!delivery.repeat) delivery.started();
			const record = delivery.record();
			if (record !== before) db.save({ ...copy, deliveries: record });
			delivery.answered(true);
			return !delivery.repeat;
		},
	};
}

/** One webhook request from load to answer. True when the delivery started the workflow. */
const handle = (processModule, db, webhookId, now = Date.now()) =>
	request(processModule, db, webhookId, now).save();

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
	const loaded = db.load().deliveries ?? '';
	const fromA = a.recordDelivery(loaded, TRIGGER, ['evt_a'], Date.now());
	expect(fromA.repeat).toBe(false);
	db.save({ deliveries: fromA.record() });
	fromA.answered(true);
	const fromB = b.recordDelivery(loaded, TRIGGER, ['evt_b'], Date.now());
	expect(fromB.repeat).toBe(false);
	db.save({ deliveries: fromB.record() });
	fromB.answered(true);
	expect(recorded(db, ['evt_a', 'evt_b'])).toEqual(['evt_b']);
	// A's next request, even a repeat it drops, writes its own record back.
	expect(handle(a, db, 'evt_b')).toBe(false);
	expect(recorded(db, ['evt_a', 'evt_b'])).toEqual(['evt_a', 'evt_b']);
	expect(handle(b, db, 'evt_a')).toBe(false);
});

test('a request that adds nothing gives back the stored record itself (n8n saves nothing)', () => {
	const db = database();
	const a = newProcess();
	expect(handle(a, db, 'evt_1')).toBe(true);
	const stored = db.load().deliveries;
	const again = a.recordDelivery(stored, TRIGGER, ['evt_1'], Date.now());
	expect(again.repeat).toBe(true);
	expect(again.record()).toBe(stored);
});

test('a delivery not answered 2xx (its workflow did not start) is forgotten: the retry starts it', () => {
	const db = database();
	const a = newProcess();
	// n8n failed to start the execution and answered 500: nothing was saved.
	const failed = a.recordDelivery(db.load().deliveries ?? '', TRIGGER, ['evt_1'], Date.now());
	expect(failed.repeat).toBe(false);
	failed.answered(false);
	// The service's retry, at the same processor, starts the workflow ...
	expect(handle(a, db, 'evt_1')).toBe(true);
	// ... and from then on the id is a repeat everywhere.
	expect(handle(a, db, 'evt_1')).toBe(false);
	expect(handle(newProcess(), db, 'evt_1')).toBe(false);
});

test('an id whose workflow has not started is a repeat here, and is not written back by other requests', () => {
	const db = database();
	const a = newProcess();
	const pending = a.recordDelivery(db.load().deliveries ?? '', TRIGGER, ['evt_slow'], Date.now());
	expect(pending.repeat).toBe(false);
	expect(isRecorded({ deliveries: pending.record() }, 'evt_slow', Date.now())).toBe(true);
	// The same delivery arriving again meanwhile starts nothing.
	expect(
		a.recordDelivery(db.load().deliveries ?? '', TRIGGER, ['evt_slow'], Date.now()).repeat,
	).toBe(true);
	// Another delivery saved meanwhile does not carry the unanswered id into the database.
	expect(handle(a, db, 'evt_other')).toBe(true);
	expect(recorded(db, ['evt_slow', 'evt_other'])).toEqual(['evt_other']);
	// Once n8n has started its workflow, the next save writes it back.
	pending.started();
	expect(handle(a, db, 'evt_third')).toBe(true);
	expect(recorded(db, ['evt_slow', 'evt_other', 'evt_third'])).toEqual([
		'evt_slow',
		'evt_other',
		'evt_third',
	]);
});

test('40 deliveries at once on two processors (every request loads the same copy): each process’s last save carries every id it started, and one more request to each stores all 40', () => {
	const db = database();
	const processes = [newProcess(), newProcess()];
	const ids = Array.from({ length: 40 }, (_, index) => `evt_burst_${index}`);
	// Round robin; every copy is loaded before the first save.
	const requests = ids.map((id, index) => request(processes[index % 2], db, id));
	expect(requests.every((each) => !each.repeat)).toBe(true);
	// The saves land in reverse order: the first request's save is the last.
	for (const each of [...requests].reverse()) expect(each.save()).toBe(true);
	const byProcess = (at) => ids.filter((_, index) => index % 2 === at);
	// The last save was process 0's (the first request): it holds all of process 0's ids.
	expect(recorded(db, ids)).toEqual(byProcess(0));
	// Process 1's ids return with its next save, a dropped repeat included ...
	expect(handle(processes[1], db, ids[0])).toBe(false);
	expect(recorded(db, ids)).toEqual(ids);
	// ... and from then on every id is a repeat at either process, however the saves interleave.
	const again = ids.map((id, index) => request(processes[(index + 1) % 2], db, id));
	expect(again.every((each) => each.repeat)).toBe(true);
	for (const each of again) expect(each.save()).toBe(false);
	expect(recorded(db, ids)).toEqual(ids);
});

test('ids seen in a stored copy are written back by this process when another processor’s save drops them', () => {
	const db = database();
	const [a, b, c] = [newProcess(), newProcess(), newProcess()];
	const all = ['evt_a', 'evt_b', 'evt_c', 'evt_d'];
	expect(handle(a, db, 'evt_a')).toBe(true);
	// B handles evt_b from a copy that holds evt_a.
	expect(handle(b, db, 'evt_b')).toBe(true);
	// C saves from a copy loaded before both: the stored record holds evt_c alone.
	const fromC = c.recordDelivery('', TRIGGER, ['evt_c'], Date.now());
	fromC.started();
	db.save({ deliveries: fromC.record() });
	expect(recorded(db, all)).toEqual(['evt_c']);
	// B never handled evt_a, but saw it stored: its next save brings it back with its own.
	expect(handle(b, db, 'evt_d')).toBe(true);
	expect(recorded(db, all)).toEqual(all);
});

test('a delivery whose workflow started is kept even when its answer fails (the retry is a repeat)', () => {
	const db = database();
	const a = newProcess();
	const delivery = a.recordDelivery('', TRIGGER, ['evt_started'], Date.now());
	delivery.started();
	db.save({ deliveries: delivery.record() });
	delivery.answered(false);
	expect(handle(a, db, 'evt_started')).toBe(false);
	expect(handle(newProcess(), db, 'evt_started')).toBe(false);
});

test('ids expire after 24 hours; at most 2000 are kept, the oldest dropped', () => {
	const db = database();
	const processModule = newProcess();
	const start = Date.parse('2030-01-01T00:00:00Z');
	expect(handle(processModule, db, 'evt_old', start)).toBe(true);
	expect(handle(newProcess(), db, 'evt_old', start + 23 * 3600 * 1000)).toBe(false);
	expect(handle(newProcess(), db, 'evt_old', start + 25 * 3600 * 1000)).toBe(true);

	const many = newProcess();
	const later = start + 26 * 3600 * 1000;
	let most = 0;
	for (let index = 0; index < 2100; index += 1) {
		handle(many, db, `evt_${index}`, later + index);
		most = Math.max(most, entryCount(db));
	}
	expect(most).toBe(2000);
	const now = later + 2100;
	const all = Array.from({ length: 2100 }, (_, index) => `evt_${index}`);
	// The oldest went first: the first 100 are gone, the last 2000 are kept.
	expect(recorded(db, [...all, 'evt_old'], now)).toEqual(all.slice(100));
	// What the process itself remembers stays within the cap too, and still drops a repeat.
	expect(handle(many, db, 'evt_2099', now)).toBe(false);
	expect(handle(newProcess(), db, 'evt_50', now)).toBe(true);
});

test('through n8n’s change-tracking static data: a new id marks it changed, a repeat does not', () => {
	const { ObservableObject } = require('n8n-workflow');
	const column = { node: {} };
	const processModule = newProcess();
	const load = () => ObservableObject.create(JSON.parse(JSON.stringify(column)));

	const first = load();
	expect(recordIn(processModule, first.node, 'evt_1')).toBe(false);
	expect(first.__dataChanged).toBe(true);
	column.node = JSON.parse(JSON.stringify(first.node));

	// The record exists now, so the next id replaces its value: still seen as a change.
	const second = load();
	expect(recordIn(processModule, second.node, 'evt_2')).toBe(false);
	expect(second.__dataChanged).toBe(true);
	column.node = JSON.parse(JSON.stringify(second.node));
	expect(column.node.deliveries).toHaveLength(2 * ENTRY_LENGTH);

	const repeat = load();
	expect(recordIn(processModule, repeat.node, 'evt_2')).toBe(true);
	expect(repeat.__dataChanged).toBeFalsy();
});

test('a new delivery is marked for saving again after n8n 2.x, starting the execution, cleared the changed flag', () => {
	const { ObservableObject } = require('n8n-workflow');
	const state = loadInNewProcess('trigger/state.js');
	// The static data as n8n loads it for a request, and the node's part of it.
	const column = {};
	const staticData = ObservableObject.create(column);
	staticData['node:Dynamic QR Trigger'] = ObservableObject.create({}, staticData);
	const ctx = {
		getWorkflowStaticData: () => staticData['node:Dynamic QR Trigger'],
		getNode: () => ({ id: 'node-1', name: 'Dynamic QR Trigger' }),
		getWorkflow: () => ({ id: 'workflow-marked' }),
	};
	const delivery = state.checkDelivery(ctx, ['evt_marked'], Date.now());
	expect(delivery.repeat).toBe(false);
	expect(staticData.__dataChanged).toBe(true);
	// n8n 2.x builds another Workflow over the same object when it starts the execution.
	ObservableObject.create(column);
	expect(staticData.__dataChanged).toBe(false);
	delivery.started();
	expect(staticData.__dataChanged).toBe(true);
	expect(isRecorded(column['node:Dynamic QR Trigger'], 'evt_marked', Date.now())).toBe(true);

	// A repeat changes nothing, so it marks nothing.
	const copy = ObservableObject.create(JSON.parse(JSON.stringify(column)));
	const repeat = state.checkDelivery(
		{ ...ctx, getWorkflowStaticData: () => copy['node:Dynamic QR Trigger'] },
		['evt_marked'],
		Date.now(),
	);
	expect(repeat.repeat).toBe(true);
	repeat.started();
	expect(copy.__dataChanged).toBe(false);
});
