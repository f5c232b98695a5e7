'use strict';
/**
 * Case 8 (`update-many`): re-point 1,000 URL codes to one new URL, in a real n8n against the
 * sandbox of case 1 (3,000 requests a minute, a bucket of 50, 50 ms latency). QR Code › Update
 * Many (Dry Run off) against what a user builds without it: QR Code › Get Many (Return All) →
 * QR Code › Update per item (Replace Payload on, so each item sends one PATCH and no read).
 * Requests, time, and the rate-limit floor: the requests sent ÷ the plan's rate.
 */
const { TYPES, node, credentialRef, chain, workflow } = require('../../dev/n8n/workflow-builder');
const { createVariantWorkflows, nodeRun } = require('../lib/n8n');
const { SANDBOX_SETTINGS } = require('../lib/sandbox');

const CODES = 1000;
const NEW_URL = 'https://example.com/summer-sale';
const REPOINT = { payloadInput: 'fields', type: 'url', payload_url_url: NEW_URL };

function variantWorkflow(title, steps, credential) {
	const nodes = [
		node(TYPES.manualTrigger, {}, { name: 'Start', position: [0, 0] }),
		...steps.map(([name, parameters], index) =>
			node(TYPES.dynamicQr, { resource: 'qrCode', ...parameters }, { name, typeVersion: 2, position: [220 * (index + 1), 0], credentials: credentialRef('dynamicQrApi', credential) }),
		),
	];
	return workflow(`bench: ${title}`, nodes, chain(...nodes.map((n) => n.name)));
}

function variants(credential) {
	const many = [['Update Many', { operation: 'updateMany', filters: {}, dryRun: false, atMost: CODES, updateFields: {}, ...REPOINT }]];
	const byHand = [
		['Get Many', { operation: 'getAll', returnAll: true, filters: {}, simplify: true }],
		['Update', { operation: 'update', qrCodeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' }, updateFields: {}, ...REPOINT, replacePayload: true }],
	];
	return {
		ours: { label: 'QR Code › Update Many (Dry Run off, default settings)', nodes: ['Update Many'], json: variantWorkflow('Update Many, 1,000 codes', many, credential) },
		byHand: { label: 'QR Code › Get Many (Return All) → QR Code › Update per item (default settings)', nodes: ['Get Many', 'Update'], json: variantWorkflow('Get Many → Update, 1,000 codes', byHand, credential) },
	};
}

async function run({ n8n, sandbox, credentials, repeats, log }) {
	const chosen = Object.entries(variants(credentials.ours));
	const results = await createVariantWorkflows(n8n, chosen);
	for (let r = 0; r < repeats; r++) {
		const order = r % 2 ? [...chosen].reverse() : chosen;
		for (const [key, variant] of order) {
			await sandbox.reset();
			await sandbox.seed(CODES);
			const before = (await sandbox.control('GET', '/requests')).data.length;
			const execution = await n8n.runWorkflow(results[key].workflowId, { timeoutMs: 600000 });
			const runs = variant.nodes.map((name) => nodeRun(execution, name)).filter((x) => x.ran);
			const data = (await sandbox.control('GET', '/requests')).data.slice(before);
			const codes = await sandbox.codes();
			const requests = data.length;
			const floorMs = (requests / SANDBOX_SETTINGS.rateLimitPerMinute) * 60000;
			// n8n's own time for the nodes under test, summed.
			const ms = runs.reduce((sum, x) => sum + x.ms, 0);
			const result = {
				status: execution.status,
				error: runs.find((x) => x.error)?.error ?? execution.error?.message ?? null,
				ms,
				requests,
				reads: data.filter((x) => x.method === 'GET').length,
				writes: data.filter((x) => x.method === 'PATCH').length,
				status429: data.filter((x) => x.status === 429).length,
				repointed: codes.filter((code) => code.payload?.url === NEW_URL).length,
				floorMs,
				ratio: ms / floorMs,
			};
			log(
				`  ${variant.label}: ${(ms / 1000).toFixed(2)} s, ${result.status}, requests ${requests} (reads ${result.reads}, writes ${result.writes}, 429s ${result.status429}), ${result.repointed} of ${CODES} codes re-pointed, floor ${(floorMs / 1000).toFixed(2)} s, ${result.ratio.toFixed(2)}× the floor${result.error ? `, error: ${result.error}` : ''}`,
			);
			results[key].runs.push(result);
		}
	}
	return { codes: CODES, plan: SANDBOX_SETTINGS.rateLimitPerMinute, results };
}

module.exports = { run, CODES };
