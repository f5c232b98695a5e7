'use strict';
/**
 * Scan milestone claims across n8n processes: each "process" is a separate load of the built
 * module (its own memory); the "database" is the stored claims, loaded as a copy for a request
 * and saved whole after it, as n8n does with a trigger's static data.
 */
const { loadInNewProcess } = require('../support/new-process');

const TRIGGER = 'workflow-1\u0000trigger-node';
const BASELINE = '100,1000|';
const MILESTONES = [100, 1000];

/** A fresh n8n process: nothing is remembered in memory. */
const newProcess = () => loadInNewProcess('trigger/milestoneClaims.js');

const claimsOf = (text) =>
	Object.fromEntries(
		text
			.split(';')
			.filter(Boolean)
			.map((entry) => entry.split(',')),
	);

test('a claim counts in its process at once, is stored only once started, and is dropped when the delivery fails', () => {
	const processA = newProcess();
	const first = processA.claimMilestones('', TRIGGER, BASELINE, 'code1', MILESTONES, 100);
	expect(first.reached).toEqual([100]);
	expect(first.claims()).toBe('');
	// A second scan of the same code at once, in the same process: nothing left to claim.
	const second = processA.claimMilestones('', TRIGGER, BASELINE, 'code1', MILESTONES, 101);
	expect(second.reached).toEqual([]);
	// The first delivery's workflow could not start: its retry claims the milestone again.
	first.answered(false);
	const retry = processA.claimMilestones('', TRIGGER, BASELINE, 'code1', MILESTONES, 102);
	expect(retry.reached).toEqual([100]);
	retry.started();
	expect(claimsOf(retry.claims())).toEqual({ code1: '100' });
});

test("a claim lost to another process's save is written back by the next save of the process that made it", () => {
	const processA = newProcess();
	const processB = newProcess();
	let column = '';
	// Both load the same copy; A claims 100 for code1, B 1000 for code2; B saves last.
	const loadedByA = column;
	const loadedByB = column;
	const a = processA.claimMilestones(loadedByA, TRIGGER, BASELINE, 'code1', MILESTONES, 150);
	const b = processB.claimMilestones(loadedByB, TRIGGER, BASELINE, 'code2', MILESTONES, 1200);
	a.started();
	b.started();
	column = a.claims();
	column = b.claims();
	expect(claimsOf(column)).toEqual({ code2: '1000' });
	// B never learnt code1's claim, so a scan of code1 on B would claim it again...
	// ...unless A's next save (its resync, or its next delivery) writes it back first.
	column = processA.repairClaims(column, TRIGGER, BASELINE);
	expect(claimsOf(column)).toEqual({ code1: '100', code2: '1000' });
	expect(
		processB.claimMilestones(column, TRIGGER, BASELINE, 'code1', MILESTONES, 160).reached,
	).toEqual([]);
	// A save that lacks nothing is the stored copy itself: n8n then saves nothing.
	expect(processA.repairClaims(column, TRIGGER, BASELINE)).toBe(column);
});

test('a new baseline starts over: claims of the old one are not written back', () => {
	const processA = newProcess();
	const claim = processA.claimMilestones('', TRIGGER, BASELINE, 'code1', MILESTONES, 100);
	claim.started();
	expect(claimsOf(claim.claims())).toEqual({ code1: '100' });
	expect(processA.repairClaims('', TRIGGER, '5|')).toBe('');
	expect(processA.claimMilestones('', TRIGGER, '5|', 'code1', [5], 100).reached).toEqual([5]);
});

test('a count that went down and up again (a reset) reaches no claimed milestone twice', () => {
	const processA = newProcess();
	const stored = 'code1,1000';
	expect(
		processA.claimMilestones(stored, TRIGGER, BASELINE, 'code1', MILESTONES, 3).reached,
	).toEqual([]);
	expect(
		processA.claimMilestones(stored, TRIGGER, BASELINE, 'code1', MILESTONES, 1500).reached,
	).toEqual([]);
	// Ids with `,` or `;` are kept whole; code1's claim, learnt from the stored copy above, is
	// written back into a copy that lacks it.
	const odd = processA.claimMilestones('', TRIGGER, BASELINE, 'a,b;c', MILESTONES, 100);
	odd.started();
	expect(odd.claims()).toBe('code1,1000;a%2Cb%3Bc,100');
});
