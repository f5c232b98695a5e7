'use strict';
/**
 * Case 1 (and 4, with faults): 1,000 QR code creates through real n8n against the sandbox
 * (50 ms latency, 3,000 per minute, bucket of 50). Our node with default settings and with
 * parallel requests; n8n's HTTP Request node doing the same POSTs (same Idempotency-Key per
 * item) with default settings and with its batching and retry options.
 */
const wf = require('../lib/workflows');
const { nodeRun } = require('../lib/n8n');
const { SANDBOX_SETTINGS } = require('../lib/sandbox');

const COUNT = 1000;
/** The floor: 1,000 creates at 3,000 per minute. */
const FLOOR_MS = (COUNT / SANDBOX_SETTINGS.rateLimitPerMinute) * 60000;
const PARALLEL = 10;
/** Batching sized to the rate limit (50 per second = 3,000 per minute); n8n's default retry. */
const BATCHING = { batchSize: 50, batchInterval: 1000 };
const RETRY = { maxTries: 3, waitBetweenTries: 1000 };

function variants({ sandbox, credentials, count = COUNT }) {
	const baseUrl = sandbox.sandbox.baseUrl;
	return {
		oursDefault: {
			label: wf.fixedWindow()
				? `Dynamic QR, default settings but Concurrent Requests ${wf.fixedWindow()} (BENCH_FIXED_WINDOW)`
				: 'Dynamic QR, default settings (requests in flight adapt to the API)',
			node: wf.NAMES.ours,
			json: wf.bulkOurs({ count, credential: credentials.ours, label: `ours default ${count}` }),
		},
		oursParallel: {
			label: `Dynamic QR, Concurrent Requests ${PARALLEL}`,
			node: wf.NAMES.ours,
			json: wf.bulkOurs({ count: COUNT, credential: credentials.ours, concurrency: PARALLEL, label: 'ours parallel' }),
		},
		httpDefault: {
			label: 'HTTP Request, default settings',
			node: wf.NAMES.http,
			json: wf.bulkHttp({ count, baseUrl, bearer: credentials.bearer, label: `http default ${count}` }),
		},
		httpBatchRetry: {
			label: `HTTP Request, batching ${BATCHING.batchSize} per ${BATCHING.batchInterval} ms + Retry On Fail (${RETRY.maxTries} tries, ${RETRY.waitBetweenTries} ms)`,
			node: wf.NAMES.http,
			json: wf.bulkHttp({ count: COUNT, baseUrl, bearer: credentials.bearer, batching: BATCHING, retry: RETRY, label: 'http batching + retry' }),
		},
	};
}

/** Items of the node's output that are a created code (not an error item). */
function createdItems(items) {
	return items.filter((item) => {
		const json = item.json ?? {};
		const record = json.data && typeof json.data === 'object' ? json.data : json;
		return !json.error && typeof record.id === 'string';
	}).length;
}

/**
 * One run: reset the sandbox, optionally inject faults, run the workflow, read the counts.
 * `during(startedAt)` may schedule more faults; it returns a cancel function.
 */
async function runOnce({ n8n, sandbox, workflowId, variant, faults, during, log, count = COUNT }) {
	await sandbox.reset();
	if (faults) await sandbox.setFaults(faults);
	const started = Date.now();
	const cancel = during ? during() : () => {};
	let execution;
	try {
		execution = await n8n.runWorkflow(workflowId, { timeoutMs: 600000 });
	} finally {
		cancel();
	}
	const clientMs = Date.now() - started;
	const run = nodeRun(execution, variant.node);
	const ok = createdItems(run.items);
	const codes = await sandbox.codeCounts();
	const requests = await sandbox.requestCounts();
	const result = {
		status: execution.status,
		error: run.error,
		ms: run.ms,
		clientMs,
		okItems: ok,
		failedItems: count - ok,
		codes: codes.codes,
		duplicates: codes.duplicates,
		requests: requests.total,
		status429: requests.status429,
		dropped: requests.dropped,
		replays: requests.created201 - (codes.codes - requests.dropped),
		maxInFlight: requests.maxInFlight,
	};
	log(
		`  ${variant.label}: ${(result.ms / 1000).toFixed(2)} s, ${result.status}, created ${result.codes}, failed items ${result.failedItems}, duplicates ${result.duplicates}, 429s ${result.status429}, dropped ${result.dropped}${result.error ? `, error: ${result.error}` : ''}`,
	);
	return result;
}

async function runCase({ n8n, sandbox, credentials, repeats, repeatsFor = {}, log, only, faults, during, count = COUNT }) {
	const all = variants({ sandbox, credentials, count });
	const chosen = Object.entries(all).filter(([key]) => !only || only.includes(key));
	const results = {};
	for (const [key, variant] of chosen) {
		const { id } = await n8n.createWorkflow(variant.json);
		results[key] = { label: variant.label, workflowId: id, runs: [] };
	}
	for (let r = 0; r < repeats; r++) {
		log(`repeat ${r + 1} of ${repeats}`);
		for (const [key, variant] of chosen) {
			if (r >= (repeatsFor[key] ?? repeats)) continue;
			results[key].runs.push(
				await runOnce({ n8n, sandbox, workflowId: results[key].workflowId, variant, faults, during, log, count }),
			);
		}
	}
	return results;
}

/** Case 1: no faults. */
async function run({ n8n, sandbox, credentials, repeats, log }) {
	const results = await runCase({ n8n, sandbox, credentials, repeats, log });
	return { count: COUNT, floorMs: FLOOR_MS, parallel: PARALLEL, batching: BATCHING, retry: RETRY, results };
}

/**
 * Case 1b: a small plan, 60 requests per minute with a bucket of one second's worth (1, as case
 * 1's bucket is one second's worth of 3,000 per minute). 30 items: at 60 per minute each costs a
 * second, so the floor is 30 s and every item after the first waits for the plan, which is what
 * the case shows (no 429 storm, no failed item); more items would only lengthen the run.
 */
const SMALL = { count: 30, rateLimitPerMinute: 60, rateLimitBurst: 1 };

async function runSmall({ n8n, sandbox, credentials, repeats, log }) {
	await sandbox.setPlan(SMALL.rateLimitPerMinute, SMALL.rateLimitBurst);
	try {
		const results = await runCase({ n8n, sandbox, credentials, repeats, log, only: ['oursDefault', 'httpDefault'], count: SMALL.count });
		return { ...SMALL, floorMs: (SMALL.count / SMALL.rateLimitPerMinute) * 60000, results };
	} finally {
		await sandbox.setPlan(SANDBOX_SETTINGS.rateLimitPerMinute, SANDBOX_SETTINGS.rateLimitBurst);
	}
}

/** Case 4: 20 % of create answers dropped after commit, plus bursts of injected 429s. */
const FAULTS = { dropAfterCommitRate: 0.2 };
const BURSTS = [
	{ atMs: 2000, status429Count: 20 },
	{ atMs: 7000, status429Count: 20 },
	{ atMs: 12000, status429Count: 20 },
];

async function runFaults({ n8n, sandbox, credentials, repeats, httpRepeats, log }) {
	const during = () => {
		const timers = BURSTS.map(({ atMs, status429Count }) =>
			setTimeout(() => {
				sandbox.setFaults({ status429Count, retryAfterSeconds: 1 }).catch((error) => log(`  429 burst failed: ${error.message}`));
			}, atMs),
		);
		return () => timers.forEach(clearTimeout);
	};
	const results = await runCase({
		n8n,
		sandbox,
		credentials,
		repeats: Math.max(repeats, httpRepeats),
		// A failing HTTP Request run takes a minute (every try resends all 1,000): fewer of them.
		repeatsFor: { oursParallel: repeats, httpBatchRetry: httpRepeats },
		log,
		only: ['oursParallel', 'httpBatchRetry'],
		faults: FAULTS,
		during,
	});
	return { count: COUNT, floorMs: FLOOR_MS, faults: FAULTS, bursts: BURSTS, results };
}

module.exports = { run, runSmall, runFaults, createdItems, COUNT, FLOOR_MS, SMALL };
