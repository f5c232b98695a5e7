'use strict';
/**
 * Case 6 (`scan-report`): QR Code › Get Scan Report over 1,000 codes for the Last 30 Days, One
 * Summary Item, at default settings, in a real n8n against the sandbox of case 1 (3,000 requests
 * a minute, a bucket of 50, 50 ms latency). Requests sent, time, and the rate-limit floor: the
 * requests sent ÷ the plan's rate, the least time any client needs for them.
 *
 * The codes, by index modulo 4: never scanned; last scanned 90 days ago (before the previous
 * period); scanned 5 days ago only (one `/scans`); scanned 5 and 40 days ago, in both periods
 * (one `/scans` over both, one of the period alone for its breakdowns). Scans at noon UTC, so
 * every day falls in the same period in any time zone n8n runs in.
 */
const { TYPES, node, credentialRef, chain, workflow } = require('../../dev/n8n/workflow-builder');
const { nodeRun } = require('../lib/n8n');
const { SANDBOX_SETTINGS } = require('../lib/sandbox');

const CODES = 1000;
const NAME = 'Dynamic QR';
const SCANS_DAYS_AGO = [[], [90], [5], [5, 40]];

const dayAgo = (days) => new Date(Date.now() - days * 86400000).toISOString().slice(0, 10);

function reportWorkflow(credential) {
	const nodes = [
		node(TYPES.manualTrigger, {}, { name: 'Start', position: [0, 0] }),
		node(
			TYPES.dynamicQr,
			{ resource: 'qrCode', operation: 'getScanReport', codesBy: 'filters', filters: {}, period: 'last30Days', reportOutput: 'summary' },
			{ name: NAME, position: [220, 0], credentials: credentialRef('dynamicQrApi', credential) },
		),
	];
	return workflow('bench: scan report, 1,000 codes, Last 30 Days', nodes, chain(...nodes.map((n) => n.name)));
}

async function seedScans(sandbox) {
	const codes = await sandbox.codes();
	const jobs = codes.flatMap((code, index) =>
		SCANS_DAYS_AGO[index % 4].map((days) => ({ qr_code_id: code.id, scanned_at: `${dayAgo(days)}T12:00:00Z` })),
	);
	for (let i = 0; i < jobs.length; i += 32) {
		await Promise.all(jobs.slice(i, i + 32).map((job) => sandbox.control('POST', '/scans', job)));
	}
	return jobs.length;
}

async function run({ n8n, sandbox, credentials, repeats, log }) {
	const { id } = await n8n.createWorkflow(reportWorkflow(credentials.ours));
	const runs = [];
	for (let r = 0; r < repeats; r++) {
		await sandbox.reset();
		await sandbox.seed(CODES);
		const scans = await seedScans(sandbox);
		const before = (await sandbox.control('GET', '/requests')).data.length;
		const execution = await n8n.runWorkflow(id, { timeoutMs: 600000 });
		const ran = nodeRun(execution, NAME);
		const data = (await sandbox.control('GET', '/requests')).data.slice(before);
		const summary = ran.items[0]?.json ?? {};
		const requests = data.length;
		const floorMs = (requests / SANDBOX_SETTINGS.rateLimitPerMinute) * 60000;
		const result = {
			status: execution.status,
			error: ran.error ?? execution.error?.message ?? null,
			ms: ran.ms,
			requests,
			listReads: data.filter((x) => x.path === '/qr-codes').length,
			scansRequests: data.filter((x) => x.path.endsWith('/scans')).length,
			status429: data.filter((x) => x.status === 429).length,
			floorMs,
			ratio: ran.ms / floorMs,
			codes: summary.codes,
			scans: summary.scans,
			previousScans: summary.previous_scans,
			seededScans: scans,
		};
		log(
			`  Get Scan Report, ${CODES} codes, Last 30 Days: ${(result.ms / 1000).toFixed(2)} s, ${result.status}, requests ${requests} (list ${result.listReads}, /scans ${result.scansRequests}, 429s ${result.status429}), floor ${(floorMs / 1000).toFixed(2)} s (${requests} ÷ ${SANDBOX_SETTINGS.rateLimitPerMinute}/min), ${result.ratio.toFixed(2)}× the floor; report: ${result.codes} codes, ${result.scans} scans, ${result.previousScans} before${result.error ? `, error: ${result.error}` : ''}`,
		);
		runs.push(result);
	}
	return { codes: CODES, plan: SANDBOX_SETTINGS.rateLimitPerMinute, runs };
}

module.exports = { run, CODES };
