'use strict';
/**
 * Case 6 `scan-poll`: one poll of the Dynamic QR Polling Trigger's scan events over 10,000 codes
 * (seeded once), in this process through n8n-core's PollContext and
 * TriggersAndPollers.runPollFunction (the engine the tests use, test/engine/triggers.js), against
 * the bench sandbox (rate limit 3,000 a minute, bucket 50, latency 50 ms). For New Scans (with
 * and without Include Breakdown) and Scan Milestone: the first poll (it records the counts), then,
 * after 100 other codes were scanned, the poll that emits them (each variant is a new workflow). Reported: API requests per poll, time
 * per poll, items, and the bytes of the trigger's static data (the scan cursor).
 */
const { createWorkflow, poll, POLLING_TYPE } = require('../../test/engine/triggers');

const SCANNED = 100;

async function run({ sandbox, repeats = 1, log }) {
	const codeCount = 10000;
	const variants = [
		{ key: 'newScans', label: 'New Scans', parameters: { event: 'newScans' } },
		{
			key: 'newScansBreakdown',
			label: 'New Scans, Include Breakdown',
			parameters: { event: 'newScans', includeBreakdown: true },
		},
		{
			key: 'scanMilestone',
			label: 'Scan Milestone (1)',
			parameters: { event: 'scanMilestone', milestones: '1' },
		},
	];
	const results = {};
	for (const variant of variants) results[variant.key] = { label: variant.label, runs: [] };
	await sandbox.reset();
	log(`scan-poll: seeding ${codeCount} codes`);
	await sandbox.seed(codeCount);
	const all = await sandbox.codes();
	let next = 0;
	for (let repeat = 0; repeat < repeats; repeat++) {
		for (const variant of variants) {
			const setup = createWorkflow({
				type: POLLING_TYPE,
				parameters: variant.parameters,
				credentials: { apiKey: sandbox.sandbox.keys.readWrite, baseUrl: sandbox.sandbox.baseUrl },
			});
			const measure = async () => {
				const before = (await sandbox.requestCounts()).total;
				const started = process.hrtime.bigint();
				const result = await poll(setup);
				const ms = Number(process.hrtime.bigint() - started) / 1e6;
				const requests = (await sandbox.requestCounts()).total - before;
				return { ms, requests, items: result === null ? 0 : result[0].length };
			};
			const first = await measure();
			const codes = all.slice(next, next + SCANNED);
			next += SCANNED;
			for (const code of codes) {
				await sandbox.control('POST', '/scans', { qr_code_id: code.id });
			}
			const second = await measure();
			const staticData = setup.workflow.staticData['node:Dynamic QR Polling Trigger'];
			const run = {
				codes: codeCount,
				first,
				second,
				cursorBytes: Buffer.byteLength(JSON.stringify(staticData)),
			};
			results[variant.key].runs.push(run);
			log(
				`scan-poll ${variant.label}: first poll ${first.requests} requests in ${first.ms.toFixed(0)} ms; ` +
					`after ${SCANNED} scans ${second.requests} requests in ${second.ms.toFixed(0)} ms, ` +
					`${second.items} items; cursor ${run.cursorBytes} bytes`,
			);
		}
	}
	return { codes: codeCount, scanned: SCANNED, results };
}

module.exports = { run };
