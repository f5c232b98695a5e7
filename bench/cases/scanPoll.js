'use strict';
/**
 * Case 6 `scan-poll`: the scan events' sweep (nodes/DynamicQr/api/paging.ts within the share of
 * api/rate.ts) in this process, through n8n-core's PollContext and
 * TriggersAndPollers.runPollFunction (the engine the tests use, test/engine/triggers.js), against
 * the bench sandbox (this process, 50 ms latency). For 10,000 and 100,000 codes at 60 and 3,000
 * requests a minute (the bucket a minute's worth), New Scans polled once a minute with the
 * durable scheduler's 36-second budget: the sandbox's clock and this process's Date.now move a
 * minute between polls, as n8n's scheduler would (no real minute is waited). The activation sweep
 * records the counts; then `SCANNED` codes spread over the list are scanned and the next sweep
 * reads them all.
 *
 * Per row: polls per sweep (= minutes, at one poll a minute), requests per poll (most), the most
 * requests in any minute ÷ the plan (the share kept; target ≤ the default 50 %), wall time per
 * poll, items (SCANNED expected) and the static data's bytes. Baseline, measured in the same run
 * with the rate limit lifted: one read of the whole list (QR Code › Get Many, Return All: what
 * every poll cost before the sweep), its requests and time; ratio = requests per poll ÷ its.
 */
const { runNode } = require('../../test/engine');
const { createWorkflow, poll, POLLING_TYPE } = require('../../test/engine/triggers');
const { busiestMinute } = require('../../test/support/scanPolling');

const SCANNED = 100;
const BUDGET_MS = 36000;
const MINUTE_MS = 60000;
const ROWS = [
	{ codes: 10000, plan: 60 },
	{ codes: 10000, plan: 3000 },
	{ codes: 100000, plan: 60 },
	{ codes: 100000, plan: 3000 },
];

/** How many API requests the sandbox logged (after the first `from`). */
const requestCount = async (control, from = 0) =>
	from + (await control('GET', `/requests?from=${from}`)).data.length;

async function row({ sandbox, codes, plan, log }) {
	const control = sandbox.control;
	const setup = createWorkflow({
		type: POLLING_TYPE,
		parameters: { event: 'newScans' },
		credentials: { apiKey: sandbox.sandbox.keys.readWrite, baseUrl: sandbox.sandbox.baseUrl },
	});
	const cursorOf = () => setup.workflow.staticData['node:Dynamic QR Polling Trigger'].scanCursor;
	await control('POST', '/config', { rateLimitPerMinute: plan, rateLimitBurst: plan });
	const requestsFrom = await requestCount(control, logged.count);
	logged.count = requestsFrom;
	const polls = [];
	const pollOnce = async () => {
		shift.ms += MINUTE_MS;
		const before = logged.count;
		const started = process.hrtime.bigint();
		const result = await poll(setup, { budgetMs: BUDGET_MS });
		const ms = Number(process.hrtime.bigint() - started) / 1e6;
		logged.count = await requestCount(control, before);
		polls.push({ ms, requests: logged.count - before, items: result === null ? 0 : result[0].length });
	};
	do await pollOnce();
	while (cursorOf().sweep);
	const activationPolls = polls.length;
	const all = await sandbox.codes();
	const step = Math.floor(all.length / SCANNED);
	for (let i = 0; i < SCANNED; i++) {
		await control('POST', '/scans', { qr_code_id: all[i * step].id });
	}
	// The activation sweep has ended: the next one reads every scanned code.
	do await pollOnce();
	while (cursorOf().sweep);
	const requests = (await control('GET', `/requests?from=${requestsFrom}`)).data;
	const reads = requests.filter((request) => request.method === 'GET');
	const busiest = busiestMinute(reads.map((request) => Date.parse(request.at)));
	const result = {
		codes,
		plan,
		activationPolls,
		polls: polls.length,
		mostPerPoll: Math.max(...polls.map((p) => p.requests)),
		meanMs: polls.reduce((sum, p) => sum + p.ms, 0) / polls.length,
		maxMs: Math.max(...polls.map((p) => p.ms)),
		items: polls.reduce((sum, p) => sum + p.items, 0),
		tooMany: requests.filter((request) => request.status === 429).length,
		busiestShare: busiest / plan,
		cursorBytes: Buffer.byteLength(JSON.stringify(cursorOf())),
	};
	log(
		`scan-poll ${codes} codes at ${plan}/min: a sweep in ${activationPolls} polls, ` +
			`at most ${result.mostPerPoll} requests a poll, busiest minute ${busiest} (${(result.busiestShare * 100).toFixed(0)} % of the plan), ` +
			`${result.items} items, ${result.tooMany} 429s, cursor ${result.cursorBytes} bytes`,
	);
	return result;
}

/** What a poll cost before the sweep: one read of the whole list (QR Code › Get Many, Return All). */
async function baseline({ sandbox }) {
	const before = await requestCount(sandbox.control, logged.count);
	const started = process.hrtime.bigint();
	const { error } = await runNode({
		parameters: { resource: 'qrCode', operation: 'getAll', returnAll: true },
		credentials: { apiKey: sandbox.sandbox.keys.readWrite, baseUrl: sandbox.sandbox.baseUrl },
	});
	if (error) throw error;
	const ms = Number(process.hrtime.bigint() - started) / 1e6;
	logged.count = await requestCount(sandbox.control, before);
	return { ms, requests: logged.count - before };
}

const shift = { ms: 0 };
/** The sandbox's request log is long (every seeded code): counted from where it was last seen. */
const logged = { count: 0 };

async function run({ sandbox, log, rows = ROWS }) {
	const realNow = Date.now;
	Date.now = () => realNow() + shift.ms;
	const config = await sandbox.control('GET', '/config');
	const results = [];
	try {
		let seeded = 0;
		let whole;
		await sandbox.reset();
		logged.count = 0;
		for (const { codes, plan } of rows) {
			if (codes > seeded) {
				log(`scan-poll: seeding ${codes - seeded} codes`);
				await sandbox.seed(codes - seeded);
				seeded = codes;
				// Once per size: its requests (its time at 60 a minute is the plan's: 100,000 codes
				// take 17 minutes), measured with the limit lifted.
				await sandbox.control('POST', '/config', { rateLimitPerMinute: 1e9, rateLimitBurst: 1e9 });
				whole = await baseline({ sandbox });
			}
			const measured = await row({ sandbox, codes, plan, log });
			results.push({ ...measured, baseline: whole });
		}
	} finally {
		Date.now = realNow;
		await sandbox.control('POST', '/config', config);
	}
	return { scanned: SCANNED, budgetMs: BUDGET_MS, rows: results };
}

/** The report's section 7. */
function render({ scanned, budgetMs, rows }) {
	const n = (value) => Math.round(value).toLocaleString('en-US');
	return [
		'## 7. Polling trigger: scan events, a sweep within a share of the plan',
		'',
		`New Scans in this process through n8n-core's PollContext (bench/cases/scanPoll.js), polled once a minute by a moved clock with the durable scheduler's ${budgetMs / 1000} s budget, sandbox latency 50 ms, the bucket a minute's worth. The activation sweep, then ${scanned} codes spread over the list scanned once each and polls until a whole sweep read them. Baseline (same run, rate limit lifted): one read of the whole list, QR Code › Get Many with Return All, what every poll cost before. Target: the busiest minute at most the default share, 50 % of the plan.`,
		'',
		'| codes | plan a minute | sweep (polls = minutes) | requests a poll (most) ÷ baseline | busiest minute ÷ plan | target | wall time a poll (mean, most) | items | 429s | static data |',
		'|---|---|---|---|---|---|---|---|---|---|',
		...rows.map(
			(row) =>
				`| ${n(row.codes)} | ${n(row.plan)} | ${row.activationPolls} | ${row.mostPerPoll} ÷ ${row.baseline.requests} (${n(row.baseline.ms)} ms) = ${(row.mostPerPoll / row.baseline.requests).toFixed(2)} | ${(row.busiestShare * 100).toFixed(0)} % | ${row.busiestShare <= 0.5 ? 'met' : 'missed'} | ${n(row.meanMs)} ms, ${n(row.maxMs)} ms | ${row.items} | ${row.tooMany} | ${n(row.cursorBytes)} bytes |`,
		),
		'',
	];
}

module.exports = { run, render };
