'use strict';
/**
 * Case 5 (`sync`): keeping 1,000 codes in line with a sheet of 1,000 rows of which 10 changed
 * (a new URL). Our node's QR Code › Create or Update against the HTTP Request way a user builds
 * without it: per row a search (GET /qr-codes?search=<name>), an IF "found?", an IF "changed?",
 * then an Update (PATCH) or a Create (POST). Requests sent and time, with the sandbox of case 1.
 *
 * Before every run the sandbox is reset and the 1,000 codes are seeded as the rows were before
 * the change (rate limit lifted meanwhile), so each run syncs the same 10 changes.
 */
const wf = require('../lib/workflows');
const { createVariantWorkflows, nodeRun } = require('../lib/n8n');

const ROWS = 1000;
const CHANGED = [7, 101, 202, 303, 404, 505, 606, 707, 808, 909];
/** n8n's default batching, which equals the sandbox's 3,000 per minute; Retry On Fail's defaults. */
const BATCHING = { batchSize: 50, batchInterval: 1000 };
const RETRY = { maxTries: 3, waitBetweenTries: 1000 };

/** Names that are no substring of one another, so a search finds exactly the row's code. */
const nameOf = (index) => `sync ${String(index).padStart(4, '0')}`;
const urlOf = (index, changed) => `https://example.com/sync/${index}${changed ? '/v2' : ''}`;

function variants({ sandbox, credentials }) {
	const rows = { count: ROWS, changed: CHANGED };
	return {
		ours: {
			label: 'Dynamic QR, Create or Update (default settings)',
			nodes: [wf.NAMES.ours],
			json: wf.syncOurs({ rows, credential: credentials.ours }),
		},
		http: {
			label: `HTTP Request search + IF + IF + Update/Create, batching ${BATCHING.batchSize} per ${BATCHING.batchInterval} ms + Retry On Fail`,
			nodes: wf.SYNC_HTTP_NODES,
			json: wf.syncHttp({
				rows,
				baseUrl: sandbox.sandbox.baseUrl,
				bearer: credentials.bearer,
				batching: BATCHING,
				retry: RETRY,
			}),
		},
	};
}

async function seedRows(sandbox) {
	await sandbox.seed(ROWS, {
		body: (index) => ({ name: nameOf(index), type: 'url', payload: { url: urlOf(index, false) } }),
	});
}

/**
 * The sandbox's view after a run: codes, duplicates, codes not leading where their row says, and
 * the requests after the first `before` of the log (the seeding's), by kind.
 */
async function outcome(sandbox, before) {
	const codes = await sandbox.codes();
	const byName = new Map(codes.map((code) => [code.name, code]));
	const wrong = Array.from({ length: ROWS }, (_, index) => index).filter(
		(index) => byName.get(nameOf(index))?.payload?.url !== urlOf(index, CHANGED.includes(index)),
	);
	const data = (await sandbox.control('GET', '/requests')).data.slice(before);
	return {
		codes: codes.length,
		duplicates: codes.length - byName.size,
		wrongCodes: wrong.length,
		requests: data.length,
		reads: data.filter((r) => r.method === 'GET').length,
		writes: data.filter((r) => r.method !== 'GET').length,
		status429: data.filter((r) => r.status === 429).length,
	};
}

async function run({ n8n, sandbox, credentials, repeats, log }) {
	const chosen = Object.entries(variants({ sandbox, credentials }));
	const results = await createVariantWorkflows(n8n, chosen);
	for (let r = 0; r < repeats; r++) {
		log(`repeat ${r + 1} of ${repeats}`);
		const order = r % 2 ? [...chosen].reverse() : chosen;
		for (const [key, variant] of order) {
			await sandbox.reset();
			await seedRows(sandbox);
			const before = (await sandbox.control('GET', '/requests')).data.length;
			const started = Date.now();
			const execution = await n8n.runWorkflow(results[key].workflowId, { timeoutMs: 600000 });
			const clientMs = Date.now() - started;
			const runs = variant.nodes.map((name) => nodeRun(execution, name)).filter((x) => x.ran);
			const result = {
				status: execution.status,
				error: runs.find((x) => x.error)?.error ?? execution.error?.message ?? null,
				// n8n's own time for the nodes under test, summed (the rows' Code node excluded).
				ms: runs.reduce((sum, x) => sum + x.ms, 0),
				clientMs,
				...(await outcome(sandbox, before)),
			};
			log(
				`  ${variant.label}: ${(result.ms / 1000).toFixed(2)} s, ${result.status}, requests ${result.requests} (reads ${result.reads}, writes ${result.writes}, 429s ${result.status429}), codes ${result.codes}, leading to the wrong URL ${result.wrongCodes}${result.error ? `, error: ${result.error}` : ''}`,
			);
			results[key].runs.push(result);
		}
	}
	return { rows: ROWS, changed: CHANGED.length, batching: BATCHING, retry: RETRY, results };
}

module.exports = { run, ROWS, CHANGED, nameOf, urlOf };
