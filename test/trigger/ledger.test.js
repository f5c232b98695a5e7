'use strict';
/**
 * The trigger's ledger (trigger/ledger.ts) across n8n processes: each "process" is a separate load
 * of the built module (its own memory), and the "database" is the trigger's static data as n8n
 * stores it, a JSON copy loaded before and saved whole after each request.
 */
const { ObservableObject } = require('n8n-workflow');
const { isRecorded, ENTRY_LENGTH } = require('../support/delivery-record');
const { loadInNewProcess } = require('../support/new-process');

/** A fresh n8n process: nothing is remembered in memory. */
const newProcess = () => loadInNewProcess('trigger/ledger.js');
const { CAPACITY } = newProcess();

/** The functions n8n hands a trigger, as far as the ledger uses them. */
const contextOver = (staticData) => ({
	getWorkflowStaticData: () => staticData,
	getNode: () => ({ id: 'node-1', name: 'Dynamic QR Trigger' }),
	getWorkflow: () => ({ id: 'workflow-1' }),
});

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

/** Which of these ids the stored record holds (as version 0.1.0 reads it). */
const recorded = (db, ids, now = Date.now()) => ids.filter((id) => isRecorded(db.load(), id, now));

/**
 * One webhook request in n8n 2.x's order, in two steps: it loads a copy, checks the delivery and
 * claims it; `save()` starts the workflow (n8n reads the answer), saves the copy when the ledger
 * set a key (n8n saves changed static data) and answers 2xx. `save` is true when it started.
 */
function request(processModule, db, id, now = Date.now()) {
	const copy = db.load();
	const ledger = processModule.openLedger(contextOver(copy), now);
	const repeat = ledger.has([id]);
	if (!repeat) ledger.claim(id);
	return {
		repeat,
		ledger,
		save() {
			ledger.settle(!repeat);
			if (ledger.save()) db.save(copy);
			return !repeat;
		},
	};
}

/** One webhook request from load to answer. True when the delivery started the workflow. */
const handle = (processModule, db, id, now = Date.now()) =>
	request(processModule, db, id, now).save();

const HOUR = 60 * 60 * 1000;

describe('deliveries', () => {
	test('a delivery repeated at another processor, or after a restart, is dropped', () => {
		const db = database();
		const first = newProcess();
		expect(handle(first, db, 'evt_1')).toBe(true);
		expect(handle(newProcess(), db, 'evt_1')).toBe(false);
		expect(handle(first, db, 'evt_1')).toBe(false);
		expect(handle(newProcess(), db, 'evt_2')).toBe(true);
	});

	test('a request that adds nothing sets no key (n8n saves nothing)', () => {
		const db = database();
		const a = newProcess();
		expect(handle(a, db, 'evt_1')).toBe(true);
		const copy = ObservableObject.create(db.load());
		const ledger = a.openLedger(contextOver(copy), Date.now());
		expect(ledger.has(['evt_1'])).toBe(true);
		expect(ledger.save()).toBe(false);
		expect(copy.__dataChanged).toBeFalsy();
	});

	test('an id lost to a concurrent save of another processor returns with that processor’s next save', () => {
		const db = database();
		const [a, b] = [newProcess(), newProcess()];
		// A and B load the same copy; B saves last and drops A's key.
		const fromA = request(a, db, 'evt_a');
		const fromB = request(b, db, 'evt_b');
		expect(fromA.save()).toBe(true);
		expect(fromB.save()).toBe(true);
		expect(recorded(db, ['evt_a', 'evt_b'])).toEqual(['evt_b']);
		// A's next request, even a repeat it drops, writes its own key back.
		expect(handle(a, db, 'evt_b')).toBe(false);
		expect(recorded(db, ['evt_a', 'evt_b'])).toEqual(['evt_a', 'evt_b']);
		expect(handle(b, db, 'evt_a')).toBe(false);
	});

	test('a delivery not answered 2xx (its workflow did not start) is forgotten: the retry starts it', () => {
		const db = database();
		const a = newProcess();
		const failed = request(a, db, 'evt_1');
		expect(failed.repeat).toBe(false);
		failed.ledger.settle(false); // n8n answered 500 and saved nothing
		expect(handle(a, db, 'evt_1')).toBe(true);
		expect(handle(a, db, 'evt_1')).toBe(false);
		expect(handle(newProcess(), db, 'evt_1')).toBe(false);
	});

	test('a claim whose workflow has not started is a repeat here, and no other request stores it', () => {
		const db = database();
		const a = newProcess();
		const pending = request(a, db, 'evt_slow');
		// The same delivery arriving again meanwhile starts nothing.
		expect(request(a, db, 'evt_slow').repeat).toBe(true);
		// Another delivery saved meanwhile does not carry the unanswered key into the database.
		expect(handle(a, db, 'evt_other')).toBe(true);
		expect(recorded(db, ['evt_slow', 'evt_other'])).toEqual(['evt_other']);
		// Once n8n has started its workflow, the next save writes it back.
		pending.ledger.settle(true);
		expect(handle(a, db, 'evt_third')).toBe(true);
		expect(recorded(db, ['evt_slow', 'evt_other', 'evt_third'])).toEqual([
			'evt_slow',
			'evt_other',
			'evt_third',
		]);
	});

	test('40 deliveries at once on two processors (every request loads the same copy): one more request to each stores all 40', () => {
		const db = database();
		const processes = [newProcess(), newProcess()];
		const ids = Array.from({ length: 40 }, (_, index) => `evt_burst_${index}`);
		const requests = ids.map((id, index) => request(processes[index % 2], db, id));
		expect(requests.every((each) => !each.repeat)).toBe(true);
		// The saves land in reverse order: the first request's save is the last.
		for (const each of [...requests].reverse()) expect(each.save()).toBe(true);
		expect(recorded(db, ids)).toEqual(ids.filter((_, index) => index % 2 === 0));
		// Process 1's keys return with its next save, a dropped repeat included ...
		expect(handle(processes[1], db, ids[0])).toBe(false);
		expect(recorded(db, ids)).toEqual(ids);
		// ... and from then on every id is a repeat at either process.
		const again = ids.map((id, index) => request(processes[(index + 1) % 2], db, id));
		expect(again.every((each) => each.repeat)).toBe(true);
		for (const each of again) expect(each.save()).toBe(false);
		expect(recorded(db, ids)).toEqual(ids);
	});

	test('keys seen in a stored copy are written back by this process when another processor’s save drops them', () => {
		const db = database();
		const [a, b, c] = [newProcess(), newProcess(), newProcess()];
		const all = ['evt_a', 'evt_b', 'evt_c', 'evt_d'];
		const fromC = request(c, db, 'evt_c'); // loads the empty copy first
		expect(handle(a, db, 'evt_a')).toBe(true);
		expect(handle(b, db, 'evt_b')).toBe(true); // from a copy that holds evt_a
		expect(fromC.save()).toBe(true);
		expect(recorded(db, all)).toEqual(['evt_c']);
		// B never handled evt_a, but saw it stored: its next save brings it back with its own.
		expect(handle(b, db, 'evt_d')).toBe(true);
		expect(recorded(db, all)).toEqual(all);
	});

	test('a delivery whose workflow started is kept even when its answer fails (the retry is a repeat)', () => {
		const db = database();
		const a = newProcess();
		const delivery = request(a, db, 'evt_started');
		expect(delivery.save()).toBe(true);
		delivery.ledger.settle(false);
		expect(handle(a, db, 'evt_started')).toBe(false);
		expect(handle(newProcess(), db, 'evt_started')).toBe(false);
	});

	test('a quiet spell forgets nothing: keys are kept while written within 24 hours of the newest key', () => {
		const db = database();
		const start = Date.parse('2030-01-01T00:00:00Z');
		expect(handle(newProcess(), db, 'evt_friday', start)).toBe(true);
		// 72 quiet hours: the newest key is Friday's, so it is still known, in a new process too.
		expect(handle(newProcess(), db, 'evt_friday', start + 72 * HOUR)).toBe(false);
		const monday = start + 72 * HOUR;
		expect(handle(newProcess(), db, 'evt_monday', monday)).toBe(true);
		// A key 24 hours older than the newest is forgotten (the service retries for 8.6 hours).
		expect(handle(newProcess(), db, 'evt_friday', monday)).toBe(true);
		expect(handle(newProcess(), db, 'evt_monday', monday + 23 * HOUR)).toBe(false);
		// Seen to the minute; a catch-up of Friday's silence reads no further back than 24 hours
		// before Monday's key, as far as the ledger answers (and 5 minutes later, for clocks).
		const ledger = newProcess().openLedger(contextOver(db.load()), monday);
		expect(monday - ledger.seenAt()).toBeGreaterThanOrEqual(0);
		expect(monday - ledger.seenAt()).toBeLessThanOrEqual(60_000);
		const from = ledger.readsFrom(start) - (monday - 24 * HOUR + 5 * 60_000);
		expect(from).toBeGreaterThanOrEqual(-2 * 60_000);
		expect(from).toBeLessThanOrEqual(0);
		expect(ledger.readsFrom(monday + HOUR)).toBe(monday + HOUR - 5 * 60_000);
		// After a silence, nothing from before the endpoint was registered.
		const registered = { ...db.load(), seenAt: monday + 2 * 60_000 };
		const withEndpoint = newProcess().openLedger(contextOver(registered), monday);
		expect(withEndpoint.readsFrom(monday + 3 * 60_000)).toBe(monday + 2 * 60_000);
		expect(withEndpoint.readsFrom(monday)).toBe(monday - 5 * 60_000);
	});

	test('30 deliveries a minute: a retry after the service’s whole retry span is a repeat, in a new process too; at most CAPACITY keys are kept', () => {
		const db = database();
		const a = newProcess();
		const start = Date.parse('2030-01-01T00:00:00Z');
		// One process, as in regular mode: n8n loads what the last request saved.
		const staticData = db.load();
		const retrySpan = (1 + 5 + 30 + 120 + 360) * 60_000;
		const deliveries = retrySpan / 2000 + 10; // one every 2 seconds, past the last retry
		for (let index = 0; index < deliveries; index++) {
			const ledger = a.openLedger(contextOver(staticData), start + index * 2000);
			expect(ledger.has([`evt_${index}`])).toBe(false);
			ledger.claim(`evt_${index}`);
			ledger.settle(true);
			ledger.save();
		}
		db.save(staticData);
		const last = start + deliveries * 2000;
		expect(handle(a, db, 'evt_0', last)).toBe(false);
		expect(handle(newProcess(), db, 'evt_1', last)).toBe(false);
		expect(db.load().deliveries.length / ENTRY_LENGTH).toBe(deliveries);

		// Beyond the capacity, the oldest keys go first.
		for (let index = deliveries; index < CAPACITY + 100; index++)
			handle(a, db, `evt_${index}`, last);
		expect(db.load().deliveries.length / ENTRY_LENGTH).toBe(CAPACITY);
		expect(handle(newProcess(), db, `evt_${CAPACITY + 99}`, last)).toBe(false);
		expect(handle(newProcess(), db, 'evt_50', last)).toBe(true);
		// What the process itself remembers stays within the cap too.
		expect(handle(a, db, 'evt_60', last)).toBe(true);
	});

	test('through n8n’s change-tracking static data: marked again after starting the execution cleared the flag', () => {
		const column = {};
		const staticData = ObservableObject.create(column);
		staticData['node:Dynamic QR Trigger'] = ObservableObject.create({}, staticData);
		const ctx = contextOver(staticData['node:Dynamic QR Trigger']);
		const ledger = newProcess().openLedger(ctx, Date.now());
		ledger.claim('evt_marked');
		// n8n 2.x builds another Workflow over the same object when it starts the execution.
		ObservableObject.create(column);
		expect(staticData.__dataChanged).toBe(false);
		// The answer's getter: started, and stored.
		ledger.settle(true);
		expect(ledger.save()).toBe(true);
		expect(staticData.__dataChanged).toBe(true);
		expect(isRecorded(column['node:Dynamic QR Trigger'], 'evt_marked', Date.now())).toBe(true);
	});
});

describe('scan milestone claims', () => {
	const BASELINE = '100,1000|';
	const MILESTONES = [100, 1000];
	const withBaseline = (claims = '') => ({ scanMilestones: { baseline: BASELINE, claims } });
	const claimsOf = (staticData) =>
		Object.fromEntries(
			staticData.scanMilestones.claims
				.split(';')
				.filter(Boolean)
				.map((entry) => entry.split(',')),
		);
	const open = (processModule, staticData) =>
		processModule.openLedger(contextOver(staticData), Date.now());

	test('a claim counts in its process at once, is stored only once started, and is dropped when the delivery fails', () => {
		const a = newProcess();
		const staticData = withBaseline();
		const first = open(a, staticData);
		expect(first.claimMilestones(BASELINE, 'code1', MILESTONES, 100)).toEqual([100]);
		expect(first.save()).toBe(false);
		// A second scan of the same code at once, in the same process: nothing left to claim.
		expect(open(a, staticData).claimMilestones(BASELINE, 'code1', MILESTONES, 101)).toEqual([]);
		// The first delivery's workflow could not start: its retry claims the milestone again.
		first.settle(false);
		const retry = open(a, staticData);
		expect(retry.claimMilestones(BASELINE, 'code1', MILESTONES, 102)).toEqual([100]);
		retry.settle(true);
		expect(retry.save()).toBe(true);
		expect(claimsOf(staticData)).toEqual({ code1: '100' });
		// Without a stored baseline for these settings, nothing is claimed.
		expect(open(a, staticData).claimMilestones('5|', 'code1', [5], 100)).toBeUndefined();
	});

	test("a claim lost to another process's save is written back by the next save of the process that made it", () => {
		const db = database();
		db.save(withBaseline());
		const [a, b] = [newProcess(), newProcess()];
		const [copyA, copyB] = [db.load(), db.load()];
		const fromA = open(a, copyA);
		const fromB = open(b, copyB);
		expect(fromA.claimMilestones(BASELINE, 'code1', MILESTONES, 150)).toEqual([100]);
		expect(fromB.claimMilestones(BASELINE, 'code2', MILESTONES, 1200)).toEqual([100, 1000]);
		for (const [ledger, copy] of [
			[fromA, copyA],
			[fromB, copyB],
		]) {
			ledger.settle(true);
			ledger.save();
			db.save(copy);
		}
		expect(claimsOf(db.load())).toEqual({ code2: '1000' });
		// A's next save (its resync, or its next delivery) writes code1's claim back ...
		const resync = db.load();
		expect(open(a, resync).save()).toBe(true);
		db.save(resync);
		expect(claimsOf(db.load())).toEqual({ code1: '100', code2: '1000' });
		// ... so B, which never learnt it, claims nothing for code1.
		expect(open(b, db.load()).claimMilestones(BASELINE, 'code1', MILESTONES, 160)).toEqual([]);
	});

	test('a new baseline starts over: claims of the old one are not written back', () => {
		const a = newProcess();
		const old = withBaseline();
		const claim = open(a, old);
		claim.claimMilestones(BASELINE, 'code1', MILESTONES, 100);
		claim.settle(true);
		claim.save();
		const renewed = { scanMilestones: { baseline: '5|', claims: '' } };
		expect(open(a, renewed).save()).toBe(false);
		expect(open(a, renewed).claimMilestones('5|', 'code1', [5], 100)).toEqual([5]);
	});

	test('a count that went down and up again (a reset) reaches no claimed milestone twice; odd ids are kept whole', () => {
		const a = newProcess();
		const staticData = withBaseline('code1,1000');
		expect(open(a, staticData).claimMilestones(BASELINE, 'code1', MILESTONES, 3)).toEqual([]);
		expect(open(a, staticData).claimMilestones(BASELINE, 'code1', MILESTONES, 1500)).toEqual([]);
		const copy = withBaseline('');
		const into = open(a, copy);
		into.claimMilestones(BASELINE, 'a,b;c', MILESTONES, 100);
		into.settle(true);
		into.save();
		// code1's claim, learnt from a stored copy above, is written back into a copy that lacks it.
		expect(copy.scanMilestones.claims).toBe('code1,1000;a%2Cb%3Bc,100');
	});
});

describe('catch-up tickets', () => {
	/** A request that loads the copy, runs `use` on its ledger, and saves it when a key was set. */
	function opened(processModule, db, use) {
		const copy = db.load();
		const ledger = processModule.openLedger(contextOver(copy), Date.now());
		const result = use(ledger);
		return () => {
			if (ledger.save()) db.save(copy);
			return result;
		};
	}
	/** A resync: what the process knows that the stored copy lacks is written back. */
	const resync = (processModule, db) => opened(processModule, db, () => undefined)();
	/** Whether a catch-up holding `ticket`, arriving at this process, runs. */
	const runs = (processModule, db, ticket) =>
		opened(processModule, db, (ledger) => ledger.runsCatchUp(ticket))();

	test.each([
		['the lower ticket’s processor resyncs first', [0, 1]],
		['the higher ticket’s processor resyncs first', [1, 0]],
	])(
		'two processors see one silence at once (%s), a third saves an older copy over both: once their resyncs ran, only the highest ticket’s catch-up runs, on any processor',
		(_, resyncOrder) => {
			const db = database();
			const [a, b, c] = [newProcess(), newProcess(), newProcess()];
			const tickets = [1000.25, 1000.75];
			// Each request loaded the copy before either saved: both draw a ticket.
			const stale = request(c, db, 'evt_from_an_older_copy');
			const silent = [a, b].map((processModule, index) =>
				opened(processModule, db, (ledger) => ledger.markMissed(tickets[index])),
			);
			silent[1]();
			silent[0]();
			expect(db.load().catchUpTicket).toBe(tickets[0]);
			expect(stale.save()).toBe(true);
			expect(db.load().catchUpTicket).toBeUndefined();
			// Before any resync, each processor knows only its own ticket.
			expect(runs(a, db, tickets[0])).toBe(true);
			for (const index of resyncOrder) resync([a, b][index], db);
			expect(db.load().catchUpTicket).toBe(tickets[1]);
			for (const processModule of [a, b, c, newProcess()]) {
				expect(runs(processModule, db, tickets[0])).toBe(false);
				expect(runs(processModule, db, tickets[1])).toBe(true);
			}
		},
	);

	test('a catch-up sent at activation holds no ticket and runs; the next silence draws a higher ticket than any stored', () => {
		const db = database();
		const a = newProcess();
		opened(a, db, (ledger) => ledger.markMissed(1000.5))();
		expect(runs(newProcess(), db, undefined)).toBe(true);
		expect(runs(newProcess(), db, 'not a ticket')).toBe(false);
		opened(newProcess(), db, (ledger) => ledger.markMissed(2000.5))();
		expect(db.load().catchUpTicket).toBe(2000.5);
		expect(runs(a, db, 2000.5)).toBe(true);
	});
});
