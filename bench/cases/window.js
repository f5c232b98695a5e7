'use strict';
/**
 * Case `window`: the adaptive window of requests in flight (no Concurrent Requests: api/rate.ts
 * grows it from one) against fixed windows (Concurrent Requests N, which makes the same build's
 * Flight a fixed cap of N), in one n8n, one run, variants interleaved (each repeat rotates
 * their order, so drift on a shared machine falls on every variant alike).
 *
 * - Bulk create at 3,000 per minute (bucket 50, as case 1): 1,000 creates, floor 20 s.
 * - Bulk create at 60 per minute (bucket 1, as case 1b): 120 creates, floor 120 s.
 *   Reported per variant: wall time ÷ floor, 429 answers the sandbox gave, failed items.
 * - Return All over 10,000 codes (as case 2) for each variant, against two sequential pagers
 *   measured in the same repeats: n8n's HTTP Request pagination and our node with Concurrent
 *   Requests 1 (our client reading one page at a time). Then the same again while
 *   the bench and n8n run at a higher priority (nice −10: as near a quiet machine as a shared
 *   one gets for them), and once more while `BUSY_PROCESSES` processes spin on the CPU (a busy
 *   machine made on purpose), to tell whether a slower Return All comes from the machine or from
 *   the client.
 * The 1-minute load average is recorded at the start of every run, and for Return All the CPU
 * time n8n's process tree spent on the run (from /proc), which a busy machine does not change
 * but a costlier client does.
 *
 * `BENCH_WINDOW_PREVIOUS=<git revision>` also reads Return All with that revision of this package
 * (its default settings, and Concurrent Requests 1) on a second n8n started beside the first,
 * interleaved with the others: the current client against an earlier one in the same run.
 */
const { execFileSync, spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const wf = require('../lib/workflows');
const n8nLib = require('../lib/n8n');
const { nodeRun } = n8nLib;
const { processTree } = require('../lib/memory');
const { ROOT } = require('../lib/machine');
const { SANDBOX_SETTINGS } = require('../lib/sandbox');
const { summary, fixed, range, counts } = require('../lib/stats');
const { createdItems } = require('./bulk');

/** The windows compared; `null` = no Concurrent Requests (the adaptive window). */
const WINDOWS = [
	{ key: 'adaptive', label: 'adaptive (no Concurrent Requests)', concurrency: null },
	{ key: 'fixed5', label: 'fixed 5 (Concurrent Requests 5)', concurrency: 5 },
	{ key: 'fixed10', label: 'fixed 10 (Concurrent Requests 10)', concurrency: 10 },
	{ key: 'fixed20', label: 'fixed 20 (Concurrent Requests 20)', concurrency: 20 },
];

const RATES = [
	{ key: 'rate3000', rateLimitPerMinute: 3000, rateLimitBurst: 50, count: 1000 },
	{ key: 'rate60', rateLimitPerMinute: 60, rateLimitBurst: 1, count: 120 },
];

const CODES = 10000;
const BUSY_PROCESSES = os.cpus().length;

const loadavg1 = () => Number(os.loadavg()[0].toFixed(2));
const med = (values) => summary(values).median;

/** Rotation `r` of `list`: repeat r starts with its r-th variant. */
const rotate = (list, r) => list.map((_, i) => list[(i + r) % list.length]);


const TICK_MS = 1000 / 100; // USER_HZ is 100 on Linux

/** CPU time (user + system, ms) the process tree under `pid` has used so far; NaN without /proc. */
function treeCpuMs(pid) {
	let ticks = 0;
	try {
		for (const member of processTree(pid)) {
			try {
				const stat = fs.readFileSync(`/proc/${member}/stat`, 'utf8');
				const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
				// utime, stime, cutime, cstime: fields 14 to 17 of stat, 12 to 15 after the comm.
				ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
			} catch {
				// the process ended meanwhile
			}
		}
	} catch {
		return NaN;
	}
	return ticks * TICK_MS;
}

/** What the sandbox saw since request number `from`: requests, 429s, most in flight at once. */
async function requestsSince(sandbox, from) {
	const { data } = await sandbox.control('GET', '/requests');
	const mine = data.slice(from);
	return {
		next: data.length,
		requests: mine.length,
		status429: mine.filter((r) => r.status === 429).length,
		maxInFlight: mine.reduce((max, r) => Math.max(max, r.in_flight ?? 0), 0),
	};
}

async function bulkAtRate({ n8n, sandbox, credentials, rate, repeats, log }) {
	const floorMs = (rate.count / rate.rateLimitPerMinute) * 60000;
	const results = {};
	for (const w of WINDOWS) {
		const json = wf.bulkOurs({
			count: rate.count,
			credential: credentials.ours,
			concurrency: w.concurrency,
			label: `window ${w.key} ${rate.count} at ${rate.rateLimitPerMinute}/min`,
		});
		const { id } = await n8n.createWorkflow(json);
		results[w.key] = { label: w.label, workflowId: id, runs: [] };
	}
	for (let r = 0; r < repeats; r++) {
		log(`window, ${rate.rateLimitPerMinute}/min: repeat ${r + 1} of ${repeats}`);
		for (const w of rotate(WINDOWS, r)) {
			await sandbox.reset();
			await sandbox.setPlan(rate.rateLimitPerMinute, rate.rateLimitBurst);
			const load = loadavg1();
			const execution = await n8n.runWorkflow(results[w.key].workflowId, { timeoutMs: 900000 });
			const run = nodeRun(execution, wf.NAMES.ours);
			const seen = await requestsSince(sandbox, 0);
			const codes = await sandbox.codeCounts();
			const ok = createdItems(run.items);
			const result = {
				ms: run.ms,
				ratio: run.ms / floorMs,
				status: execution.status,
				error: run.error,
				failedItems: rate.count - ok,
				codes: codes.codes,
				duplicates: codes.duplicates,
				requests: seen.requests,
				status429: seen.status429,
				maxInFlight: seen.maxInFlight,
				loadavg: load,
			};
			results[w.key].runs.push(result);
			log(
				`  ${w.key}: ${(result.ms / 1000).toFixed(2)} s = ${result.ratio.toFixed(3)}× floor, 429s ${result.status429}, failed ${result.failedItems}, codes ${result.codes}, most in flight ${result.maxInFlight}, load ${load}${result.error ? `, error: ${result.error}` : ''}`,
			);
		}
	}
	await sandbox.setPlan(SANDBOX_SETTINGS.rateLimitPerMinute, SANDBOX_SETTINGS.rateLimitBurst);
	return { ...rate, floorMs, results };
}

/**
 * Raises the scheduling priority (nice `PRIORITY`) of the bench process (the sandbox runs in it)
 * and of each n8n's process tree, as close to a quiet machine as a shared one gets for them;
 * the returned function puts every priority back. Needs the right to lower a nice value.
 */
const PRIORITY = -10;

function prioritise(instances) {
	const pids = [process.pid, ...instances.flatMap((n8n) => [...processTree(n8n.pid)])];
	const before = pids.map((pid) => {
		try {
			const was = os.getPriority(pid);
			os.setPriority(pid, PRIORITY);
			return [pid, was];
		} catch {
			return undefined;
		}
	});
	const changed = before.filter(Boolean);
	return {
		changed: changed.length,
		restore: () => {
			for (const [pid, was] of changed) {
				try {
					os.setPriority(pid, was);
				} catch {
					// the process has ended
				}
			}
		},
	};
}

/** `count` processes spinning on the CPU until the returned function stops them (by pid). */
function busyMachine(count) {
	const children = Array.from({ length: count }, () =>
		spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' }),
	);
	const stop = () => {
		for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
	};
	process.once('exit', stop);
	return stop;
}

function returnAllVariants({ n8n, credentials, baseUrl, previous }) {
	const variants = [
		...WINDOWS.map((w) => ({
			key: w.key,
			label: `Dynamic QR, ${w.label}`,
			node: wf.NAMES.ours,
			n8n,
			json: wf.returnAllOurs({
				credential: credentials.ours,
				concurrency: w.concurrency,
				label: `window ${w.key}`,
			}),
		})),
		{
			key: 'oursSequential',
			label: 'Dynamic QR, Concurrent Requests 1 (sequential pager, our client)',
			node: wf.NAMES.ours,
			n8n,
			json: wf.returnAllOurs({
				credential: credentials.ours,
				concurrency: 1,
				label: 'window sequential',
			}),
		},
		{
			key: 'httpPages',
			label: 'HTTP Request, pagination (sequential pager)',
			node: wf.NAMES.http,
			n8n,
			json: wf.returnAllHttp({
				baseUrl,
				bearer: credentials.bearer,
				splitOut: false,
				label: 'window http pages',
			}),
		},
	];
	if (previous) {
		variants.push(
			{
				key: 'previousAdaptive',
				label: `Dynamic QR at ${previous.revision}, default settings (its adaptive window; second n8n)`,
				node: wf.NAMES.ours,
				n8n: previous.n8n,
				json: wf.returnAllOurs({
					credential: previous.credentials.ours,
					concurrency: null,
					label: 'window previous',
				}),
			},
			{
				key: 'previousSequential',
				label: `Dynamic QR at ${previous.revision}, Concurrent Requests 1 (second n8n)`,
				node: wf.NAMES.ours,
				n8n: previous.n8n,
				json: wf.returnAllOurs({
					credential: previous.credentials.ours,
					concurrency: 1,
					label: 'window previous sequential',
				}),
			},
		);
	}
	return variants;
}

/** A second n8n with `revision` of this package (git archive into a temporary folder). */
async function startPrevious({ revision, sandbox, log }) {
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamic-qr-previous-'));
	try {
		const full = execFileSync('git', ['rev-parse', '--short=12', revision], {
			cwd: ROOT,
			encoding: 'utf8',
		}).trim();
		execFileSync('sh', ['-c', `git archive ${full} | tar -x -C "${dir}"`], { cwd: ROOT });
		fs.symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'), 'dir');
		log(`window: a second n8n with this package at ${full}`);
		const started = await n8nLib.start({ sandbox: sandbox.sandbox, log, packageDir: dir });
		return { ...started, revision: full, dir };
	} catch (error) {
		fs.rmSync(dir, { recursive: true, force: true });
		throw error;
	}
}

async function returnAll({ n8n, sandbox, credentials, repeats, log }) {
	const revision = process.env.BENCH_WINDOW_PREVIOUS;
	const previous = revision ? await startPrevious({ revision, sandbox, log }) : undefined;
	try {
		return await returnAllWith({ n8n, sandbox, credentials, repeats, log, previous });
	} finally {
		if (previous) {
			await previous.n8n.stop().catch((error) => log(`stopping the second n8n: ${error.message}`));
			fs.rmSync(previous.dir, { recursive: true, force: true });
		}
	}
}

async function returnAllWith({ n8n, sandbox, credentials, repeats, log, previous }) {
	await sandbox.reset();
	await sandbox.seed(CODES);
	log(`window, return all: seeded ${CODES} codes`);
	const variants = returnAllVariants({
		n8n,
		credentials,
		baseUrl: sandbox.sandbox.baseUrl,
		previous,
	});
	const ids = {};
	for (const v of variants) ids[v.key] = (await v.n8n.createWorkflow(v.json)).id;
	// One unmeasured run of each: n8n loads node code and warms its JIT on first use.
	for (const v of variants) await v.n8n.runWorkflow(ids[v.key], { timeoutMs: 300000 });

	const phases = {};
	const instances = previous ? [n8n, previous.n8n] : [n8n];
	for (const [phase, count, busy, priority] of [
		['asFound', repeats.returnAll, 0, false],
		['priority', repeats.returnAllPriority, 0, true],
		['busy', repeats.returnAllBusy, BUSY_PROCESSES, false],
	]) {
		if (!count) continue;
		const results = Object.fromEntries(variants.map((v) => [v.key, { label: v.label, runs: [] }]));
		const stopBusy = busy ? busyMachine(busy) : () => {};
		const raised = priority ? prioritise(instances) : { changed: 0, restore: () => {} };
		if (priority)
			log(
				`window, return all: nice ${PRIORITY} for ${raised.changed} processes (the bench and n8n)`,
			);
		try {
			if (busy) await new Promise((resolve) => setTimeout(resolve, 2000));
			for (let r = 0; r < count; r++) {
				log(
					`window, return all (${phase}${busy ? `, ${busy} processes spinning` : ''}): repeat ${r + 1} of ${count}`,
				);
				for (const v of rotate(variants, r)) {
					// A full bucket for every run (setting the plan refills it).
					await sandbox.setPlan(
						SANDBOX_SETTINGS.rateLimitPerMinute,
						SANDBOX_SETTINGS.rateLimitBurst,
					);
					const before = await requestsSince(sandbox, 0);
					const load = loadavg1();
					const cpuBefore = treeCpuMs(v.n8n.pid);
					const execution = await v.n8n.runWorkflow(ids[v.key], { timeoutMs: 300000 });
					const cpuMs = treeCpuMs(v.n8n.pid) - cpuBefore;
					const run = nodeRun(execution, v.node);
					const seen = await requestsSince(sandbox, before.next);
					const records = run.items.reduce(
						(sum, item) => sum + (Array.isArray(item.json?.data) ? item.json.data.length : 1),
						0,
					);
					const result = {
						repeat: r,
						ms: run.ms,
						status: execution.status,
						error: run.error,
						records,
						requests: seen.requests,
						status429: seen.status429,
						maxInFlight: seen.maxInFlight,
						cpuMs,
						loadavg: load,
					};
					results[v.key].runs.push(result);
					log(
						`  ${v.key}: ${(result.ms / 1000).toFixed(2)} s, ${records} records, ${seen.requests} requests, 429s ${seen.status429}, most in flight ${seen.maxInFlight}, n8n CPU ${(cpuMs / 1000).toFixed(2)} s, load ${load}`,
					);
				}
			}
		} finally {
			stopBusy();
			raised.restore();
		}
		phases[phase] = { busyProcesses: busy, prioritised: raised.changed, results };
	}
	return { codes: CODES, previous: previous?.revision, phases };
}

/** Per repeat, a variant's time ÷ the baseline's time in the same repeat. */
function pairedRatios(results, key, baseKey) {
	const base = results[baseKey].runs;
	return results[key].runs.map((run, i) => run.ms / base[i].ms);
}

function summaryLines(section) {
	const lines = [];
	for (const rate of ['rate3000', 'rate60']) {
		const s = section[rate];
		if (!s) continue;
		lines.push(`${s.rateLimitPerMinute}/min, ${s.count} creates, floor ${s.floorMs / 1000} s:`);
		const adaptive = med(s.results.adaptive.runs.map((r) => r.ms));
		for (const [key, e] of Object.entries(s.results)) {
			const ms = med(e.runs.map((r) => r.ms));
			lines.push(
				`  ${key.padEnd(9)} wall÷floor ${range(
					e.runs.map((r) => r.ratio),
					3,
					'×',
				)}, vs adaptive ${fixed(ms / adaptive, 3)}×, 429s ${counts(e.runs.map((r) => r.status429))}, failed ${counts(e.runs.map((r) => r.failedItems))}, load ${counts(e.runs.map((r) => r.loadavg))}`,
			);
		}
	}
	for (const [phase, p] of Object.entries(section.returnAll?.phases ?? {})) {
		lines.push(`Return All over ${section.returnAll.codes} codes, ${phase}:`);
		for (const [key, e] of Object.entries(p.results)) {
			lines.push(
				`  ${key.padEnd(14)} ${range(
					e.runs.map((r) => r.ms / 1000),
					2,
					' s',
				)}, ÷ HTTP pager ${range(pairedRatios(p.results, key, 'httpPages'), 2, '×')}, ÷ our sequential ${range(pairedRatios(p.results, key, 'oursSequential'), 2, '×')}, 429s ${counts(e.runs.map((r) => r.status429))}, most in flight ${counts(e.runs.map((r) => r.maxInFlight))}, n8n CPU ${range(
					e.runs.map((r) => r.cpuMs / 1000),
					2,
					' s',
				)}`,
			);
		}
	}
	return lines;
}

/** `parts`: 'bulk' (both rates) and 'returnAll'; the case `window-return-all` runs only the latter. */
async function run({
	n8n,
	sandbox,
	credentials,
	repeats = {},
	log,
	parts = ['bulk', 'returnAll'],
}) {
	const section = {};
	for (const rate of parts.includes('bulk') ? RATES : []) {
		section[rate.key] = await bulkAtRate({
			n8n,
			sandbox,
			credentials,
			rate,
			repeats: repeats[rate.key] ?? 2,
			log,
		});
	}
	if (parts.includes('returnAll')) {
		section.returnAll = await returnAll({
			n8n,
			sandbox,
			credentials,
			repeats: {
				returnAll: repeats.returnAll ?? 5,
				returnAllPriority: repeats.returnAllPriority ?? 5,
				returnAllBusy: repeats.returnAllBusy ?? 3,
			},
			log,
		});
	}
	for (const line of summaryLines(section)) log(line);
	return section;
}

const PHASES = {
	asFound: () => 'the machine as found (other work on it included)',
	quiet: () => 'the machine as found (other work on it included)',
	priority: (p) =>
		`the bench and n8n at nice ${PRIORITY} (${p.prioritised} processes; the nearest to a quiet machine for them)`,
	busy: (p) => `${p.busyProcesses} processes spinning on the CPU meanwhile`,
};

/** The Markdown section of RESULTS-partial.md (or RESULTS.md). */
function render(section) {
	const out = ['## Requests in flight: adaptive vs fixed windows (case `window`)', ''];
	const table = (headers, rows) =>
		[headers, headers.map(() => '---'), ...rows]
			.map((cells) => `| ${cells.join(' | ')} |`)
			.join('\n');
	const rows = [];
	for (const rate of ['rate3000', 'rate60']) {
		const s = section[rate];
		if (!s) continue;
		for (const e of Object.values(s.results)) {
			rows.push([
				`${s.rateLimitPerMinute}/min (bucket ${s.rateLimitBurst})`,
				e.label,
				String(s.count),
				range(
					e.runs.map((r) => r.ms / 1000),
					2,
					' s',
				),
				`${s.floorMs / 1000} s`,
				range(
					e.runs.map((r) => r.ratio),
					3,
					'×',
				),
				counts(e.runs.map((r) => r.status429)),
				counts(e.runs.map((r) => r.failedItems)),
				counts(e.runs.map((r) => r.maxInFlight)),
				counts(e.runs.map((r) => r.loadavg)),
			]);
		}
	}
	out.push(
		table(
			[
				'rate',
				'window',
				'items',
				'wall, median (min–max)',
				'floor',
				'wall ÷ floor',
				'429 answers',
				'failed items',
				'most in flight',
				'load avg (1 min) per run',
			],
			rows,
		),
		'',
	);
	for (const [phase, p] of Object.entries(section.returnAll?.phases ?? {})) {
		out.push(
			`Return All over ${section.returnAll.codes.toLocaleString('en-US')} codes, ${PHASES[phase](p)}; ratios per repeat against the pagers run in the same repeat:`,
			'',
		);
		out.push(
			table(
				[
					'variant',
					'wall, median (min–max)',
					'÷ HTTP Request pager',
					'÷ our sequential pager',
					'429 answers',
					'most in flight',
					'n8n CPU time',
					'load avg (1 min)',
				],
				Object.entries(p.results).map(([key, e]) => [
					e.label,
					range(
						e.runs.map((r) => r.ms / 1000),
						2,
						' s',
					),
					range(pairedRatios(p.results, key, 'httpPages'), 2, '×'),
					range(pairedRatios(p.results, key, 'oursSequential'), 2, '×'),
					counts(e.runs.map((r) => r.status429)),
					counts(e.runs.map((r) => r.maxInFlight)),
					range(
						e.runs.map((r) => r.cpuMs / 1000),
						2,
						' s',
					),
					range(
						e.runs.map((r) => r.loadavg),
						2,
					),
				]),
			),
			'',
		);
	}
	return out;
}

module.exports = { run, render, summaryLines, WINDOWS, RATES };
