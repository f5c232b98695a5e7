'use strict';
/**
 * Case 2: Return All over 10,000 codes (seeded straight through the sandbox API, not through
 * n8n): our node's QR Code > Get Many with Return All vs the HTTP Request node's pagination.
 * The same for 10,000 leads on the card and 10,000 webhook endpoints (the card list holds the
 * sandbox's one card: nothing to page). Wall time of the node(s) and the n8n process tree's
 * peak memory.
 */
const wf = require('../lib/workflows');
const { nodeRun } = require('../lib/n8n');
const { sampleMemory, mib } = require('../lib/memory');

const CODES = 10000;
/** Then the codes' list grown to this, read by our node and the pager alone (issue: 0.25× at both). */
const LARGE_CODES = 100000;
/** The other lists, as long as the codes' one: leads on the card, webhook endpoints. */
const LEADS = 10000;
const ENDPOINTS = 10000;

function variants({ sandbox, credentials }) {
	const baseUrl = sandbox.sandbox.baseUrl;
	const cardId = sandbox.sandbox.cardId;
	const other = (list, what) => ({
		[`${list}Ours`]: {
			label: `Dynamic QR, ${what} › Get Many, Return All`,
			list,
			nodes: [wf.NAMES.ours],
			json: wf.returnAllOurs({ credential: credentials.ours, list, cardId, label: `ours ${list}` }),
		},
		[`${list}Http`]: {
			label: `HTTP Request, pagination over ${what.toLowerCase()}s (one item per page of 100)`,
			list,
			nodes: [wf.NAMES.http],
			json: wf.returnAllHttp({ baseUrl, bearer: credentials.bearer, splitOut: false, list, cardId, label: `http ${list}` }),
		},
	});
	return {
		oursFull: {
			label: 'Dynamic QR, Get Many, Return All, Simplify off (full records, as HTTP Request returns them)',
			list: 'codes',
			nodes: [wf.NAMES.ours],
			json: wf.returnAllOurs({ credential: credentials.ours, simplify: false, label: 'ours full' }),
		},
		oursSimplified: {
			label: 'Dynamic QR, Get Many, Return All, Simplify on (the default)',
			list: 'codes',
			nodes: [wf.NAMES.ours],
			json: wf.returnAllOurs({ credential: credentials.ours, simplify: true, label: 'ours simplified' }),
		},
		httpPages: {
			label: 'HTTP Request, pagination (one item per page of 100)',
			list: 'codes',
			nodes: [wf.NAMES.http],
			json: wf.returnAllHttp({ baseUrl, bearer: credentials.bearer, splitOut: false, label: 'http pages' }),
		},
		httpSplit: {
			label: 'HTTP Request, pagination + Split Out (one item per code)',
			list: 'codes',
			nodes: [wf.NAMES.http, wf.NAMES.split],
			json: wf.returnAllHttp({ baseUrl, bearer: credentials.bearer, splitOut: true, label: 'http split' }),
		},
		...other('leads', 'Lead'),
		...other('endpoints', 'Webhook Endpoint'),
	};
}

/** Records a run put out: items, or for the page items of the HTTP Request their `data`. */
function recordsOut(items) {
	return items.reduce((sum, item) => sum + (Array.isArray(item.json?.data) ? item.json.data.length : 1), 0);
}

/** `repeats` rounds of every variant, the order reversed every other round. */
async function measure({ n8n, sandbox, log }, chosen, results, repeats) {
	for (let r = 0; r < repeats; r++) {
		log(`repeat ${r + 1} of ${repeats}`);
		const order = r % 2 ? [...chosen].reverse() : chosen;
		for (const [key, variant] of order) {
			const requestsBefore = await sandbox.requestCounts();
			const memory = sampleMemory(n8n.pid, { intervalMs: 50 });
			const started = Date.now();
			let execution;
			let mem;
			try {
				execution = await n8n.runWorkflow(results[key].workflowId, { timeoutMs: 300000 });
			} finally {
				mem = memory.stop();
			}
			const clientMs = Date.now() - started;
			const requestsAfter = await sandbox.requestCounts();
			const runs = variant.nodes.map((name) => nodeRun(execution, name));
			const last = runs[runs.length - 1];
			const result = {
				status: execution.status,
				error: runs.find((x) => x.error)?.error ?? null,
				ms: runs.reduce((sum, x) => sum + x.ms, 0),
				clientMs,
				records: recordsOut(last.items),
				items: last.items.length,
				apiRequests: requestsAfter.total - requestsBefore.total,
				status429: requestsAfter.status429 - requestsBefore.status429,
				baselineMiB: mib(mem.baselineTree),
				peakMiB: mib(mem.peakTree),
				growthMiB: mib(mem.peakTree - mem.baselineTree),
				mainHwmMiB: mib(mem.peakMainHwm),
			};
			log(
				`  ${key}: ${(result.ms / 1000).toFixed(2)} s, ${result.records} records in ${result.items} items, peak ${result.peakMiB.toFixed(0)} MiB (+${result.growthMiB.toFixed(0)})`,
			);
			results[key].runs.push(result);
		}
	}
}

async function run({ n8n, sandbox, credentials, repeats, log }) {
	await sandbox.reset();
	const seedStarted = Date.now();
	await sandbox.seed(CODES);
	const seedMs = Date.now() - seedStarted;
	log(`seeded ${CODES} codes in ${(seedMs / 1000).toFixed(1)} s`);
	const otherStarted = Date.now();
	await sandbox.seedLeads(LEADS);
	await sandbox.seedEndpoints(ENDPOINTS);
	const otherSeedMs = Date.now() - otherStarted;
	log(`seeded ${LEADS} leads and ${ENDPOINTS} webhook endpoints in ${(otherSeedMs / 1000).toFixed(1)} s`);

	const chosen = Object.entries(variants({ sandbox, credentials }));
	const results = {};
	for (const [key, variant] of chosen) {
		const { id } = await n8n.createWorkflow(variant.json);
		results[key] = { label: variant.label, list: variant.list, workflowId: id, runs: [] };
	}
	// One unmeasured run of each first: n8n loads node code and warms its JIT on first use.
	for (const [key] of chosen) await n8n.runWorkflow(results[key].workflowId, { timeoutMs: 300000 });
	await measure({ n8n, sandbox, log }, chosen, results, repeats);

	// The large list: our node (full records) and the sequential pager, fewer rounds (about 80 s each).
	const largeStarted = Date.now();
	await sandbox.seed(LARGE_CODES - CODES);
	log(`seeded ${LARGE_CODES - CODES} more codes in ${((Date.now() - largeStarted) / 1000).toFixed(1)} s`);
	const large = chosen.filter(([key]) => key === 'oursFull' || key === 'httpPages');
	const largeResults = Object.fromEntries(large.map(([key]) => [key, { ...results[key], runs: [] }]));
	await measure({ n8n, sandbox, log }, large, largeResults, Math.min(repeats, 2));
	return {
		codes: CODES,
		leads: LEADS,
		endpoints: ENDPOINTS,
		seedMs,
		otherSeedMs,
		results,
		large: { codes: LARGE_CODES, results: largeResults },
	};
}

module.exports = { run, CODES };
