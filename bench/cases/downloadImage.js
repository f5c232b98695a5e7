'use strict';
/**
 * Case 9 (`download-image`, issue 52): print files at the plan's floor. The codes are seeded
 * through the API, then a Code node hands their records to the node under test, as Create or
 * Update does in a print run; each variant downloads every code as a PDF, 50 mm at 300 dpi:
 *
 * - QR Code › Download Image at default settings (File Name from the record's name): one request
 *   per file, the item's name and short link taken from its input item;
 * - the same with only each code's ID in the items: the node reads each code first (two requests
 *   per file), what every Download Image did before issue 52 (3,000 a minute only);
 * - n8n's HTTP Request node, GET /qr-codes/{id}/image as a file, batched at the plan's rate
 *   (50 every second at 3,000 a minute, 1 every second at 60) with Retry On Fail (5 tries, 1 s),
 *   the best a user can set it to without pacing of its own.
 *
 * Rows: 1,000 files at 3,000 a minute (bucket of 50, 50 ms latency: case 1's sandbox) and 60 files
 * at 60 a minute (bucket of 1). Floor = files ÷ the plan's rate: 20 s and 60 s. Target: Download
 * Image within 1.05× the floor. Time is n8n's own time for the node under test.
 */
const { TYPES, node, credentialRef, chain, workflow } = require('../../dev/n8n/workflow-builder');
const { createVariantWorkflows, nodeRun } = require('../lib/n8n');
const { SANDBOX_SETTINGS } = require('../lib/sandbox');
const { HTTP_REQUEST_VERSION } = require('../lib/workflows');
const { range, counts, fixed, summary } = require('../lib/stats');

const TARGET = 1.05;
const IMAGE = { format: 'pdf', mm: 50, dpi: 300 };
const ROWS = [
	{ key: 'rate3000', count: 1000, rateLimitPerMinute: 3000, rateLimitBurst: 50, batch: { batchSize: 50, batchInterval: 1000 }, variants: ['ours', 'oursIdsOnly', 'http'] },
	{ key: 'rate60', count: 60, rateLimitPerMinute: 60, rateLimitBurst: 1, batch: { batchSize: 1, batchInterval: 1000 }, variants: ['ours', 'http'] },
];

/** The node under test after a Code node that emits the seeded codes' records (or only their IDs). */
function variantWorkflow(title, records, tested) {
	const jsCode = `return ${JSON.stringify(records)}.map((json) => ({ json }));`;
	const nodes = [
		node(TYPES.manualTrigger, {}, { name: 'Start', position: [0, 0] }),
		node(TYPES.code, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode }, { name: 'Records', typeVersion: 2, position: [220, 0] }),
		tested,
	];
	return workflow(`bench: ${title}`, nodes, chain(...nodes.map((n) => n.name)));
}

function variants(row, codes, { credentials, baseUrl }) {
	const records = codes.map(({ id, name, short_url }) => ({ id, name, short_url }));
	const ours = (name) =>
		node(
			TYPES.dynamicQr,
			{ resource: 'qrCode', operation: 'downloadImage', qrCodeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, format: IMAGE.format, sizeUnit: 'mm', mm: IMAGE.mm, dpi: IMAGE.dpi, options: { fileName: '={{ $json.name }}' } },
			{ name, typeVersion: 2, position: [440, 0], credentials: credentialRef('dynamicQrApi', credentials.ours) },
		);
	const http = node(
		TYPES.httpRequest,
		{
			method: 'GET',
			url: `=${baseUrl}/qr-codes/{{ $json.id }}/image?format=${IMAGE.format}&mm=${IMAGE.mm}&dpi=${IMAGE.dpi}`,
			authentication: 'genericCredentialType',
			genericAuthType: 'httpBearerAuth',
			options: { batching: { batch: row.batch }, response: { response: { responseFormat: 'file' } } },
		},
		{ name: 'HTTP Request', typeVersion: HTTP_REQUEST_VERSION, position: [440, 0], credentials: credentialRef('httpBearerAuth', credentials.bearer), retryOnFail: true, maxTries: 5, waitBetweenTries: 1000 },
	);
	const all = {
		ours: { label: 'QR Code › Download Image, the records as input (default settings)', node: 'Download Image', json: variantWorkflow(`Download Image, ${row.count} records`, records, ours('Download Image')) },
		oursIdsOnly: { label: 'QR Code › Download Image, only IDs as input (reads each code: as before issue 52)', node: 'Download Image', json: variantWorkflow(`Download Image, ${row.count} IDs`, records.map(({ id }) => ({ id })), ours('Download Image')) },
		http: { label: `HTTP Request, batches of ${row.batch.batchSize} every ${row.batch.batchInterval / 1000} s, Retry On Fail`, node: 'HTTP Request', json: variantWorkflow(`HTTP Request images, ${row.count}`, records, http) },
	};
	return row.variants.map((key) => [key, all[key]]);
}

async function runRow(row, { n8n, sandbox, credentials, repeats, log }) {
	await sandbox.reset();
	await sandbox.setPlan(row.rateLimitPerMinute, row.rateLimitBurst);
	await sandbox.seed(row.count);
	const codes = (await sandbox.codes()).sort((a, b) => a.name.localeCompare(b.name));
	const chosen = variants(row, codes, { credentials, baseUrl: sandbox.sandbox.baseUrl });
	const results = await createVariantWorkflows(n8n, chosen);
	const floorMs = (row.count / row.rateLimitPerMinute) * 60000;
	for (let r = 0; r < repeats; r++) {
		const order = r % 2 ? [...chosen].reverse() : chosen;
		for (const [key, variant] of order) {
			// A full bucket before each run.
			await sandbox.setPlan(row.rateLimitPerMinute, row.rateLimitBurst);
			const before = (await sandbox.control('GET', '/requests')).data.length;
			const execution = await n8n.runWorkflow(results[key].workflowId, { timeoutMs: 900000 });
			const run = nodeRun(execution, variant.node);
			const data = (await sandbox.control('GET', '/requests')).data.slice(before);
			const files = run.items.filter((item) => item.binary?.data).length;
			const result = {
				status: execution.status,
				error: run.error ?? execution.error?.message ?? null,
				ms: run.ms,
				requests: data.length,
				imageRequests: data.filter((x) => x.path.endsWith('/image')).length,
				status429: data.filter((x) => x.status === 429).length,
				files,
				failedItems: row.count - files,
				floorMs,
				ratio: run.ms / floorMs,
			};
			log(
				`  ${row.count} at ${row.rateLimitPerMinute}/min, ${variant.label}: ${(run.ms / 1000).toFixed(2)} s, ${result.status}, ${files} files, requests ${result.requests} (429s ${result.status429}), ${result.ratio.toFixed(3)}× the floor of ${floorMs / 1000} s${result.error ? `, error: ${result.error}` : ''}`,
			);
			results[key].runs.push(result);
		}
	}
	await sandbox.setPlan(SANDBOX_SETTINGS.rateLimitPerMinute, SANDBOX_SETTINGS.rateLimitBurst);
	return { ...row, floorMs, results };
}

async function run(context) {
	const out = { target: TARGET, image: IMAGE };
	for (const row of ROWS) {
		context.log(`  row: ${row.count} files at ${row.rateLimitPerMinute} a minute (${context.repeats} repeats)`);
		out[row.key] = await runRow(row, context);
	}
	return out;
}

function render(section) {
	const table = (headers, rows) => [headers, headers.map(() => '---'), ...rows].map((cells) => `| ${cells.join(' | ')} |`).join('\n');
	const rows = [];
	const verdicts = [];
	for (const row of ROWS) {
		const s = section[row.key];
		if (!s) continue;
		for (const [key, e] of Object.entries(s.results)) {
			const ratios = e.runs.map((r) => r.ratio);
			rows.push([
				`${s.count.toLocaleString('en-US')} at ${s.rateLimitPerMinute.toLocaleString('en-US')}/min (bucket ${s.rateLimitBurst})`,
				e.label,
				String(e.runs.length),
				range(e.runs.map((r) => r.ms / 1000), 2, ' s'),
				`${s.floorMs / 1000} s`,
				range(ratios, 3, '×'),
				counts(e.runs.map((r) => r.requests)),
				counts(e.runs.map((r) => r.status429)),
				counts(e.runs.map((r) => r.failedItems)),
			]);
			if (key === 'ours') {
				const median = summary(ratios).median;
				const met = e.runs.every((r) => r.failedItems === 0) && median <= section.target;
				verdicts.push(`- ${s.count.toLocaleString('en-US')} files at ${s.rateLimitPerMinute.toLocaleString('en-US')} a minute: Download Image ${fixed(median, 3)}× the floor (median), target ≤ ${section.target}×: ${met ? '**met**' : '**missed**'}.`);
			}
		}
	}
	return [
		'## 9. Download Image: print files at the plan\'s floor (case `download-image`)',
		'',
		`Each variant downloads every seeded code as a ${section.image.format.toUpperCase()}, ${section.image.mm} mm at ${section.image.dpi} dpi, after a Code node that emits the codes' records (as Create or Update does in a print run; bench/cases/downloadImage.js). Floor = files ÷ the plan's rate; the bucket's first requests pass at once, so a run can end slightly under it. Time = n8n's own time for the node under test. Repeats alternate the variants' order.`,
		'',
		table(['plan', 'variant', 'runs', 'time, median (min–max)', 'floor', 'time ÷ floor', 'API requests', '429 answers', 'items without a file'], rows),
		'',
		...verdicts,
		'',
	];
}

module.exports = { run, render, ROWS };
