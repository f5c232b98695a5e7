'use strict';
/**
 * Case 3a: signed deliveries per second that start a workflow, on loopback, through n8n's
 * production webhook URL: our trigger, versions 1 and 2 (verify every signature, record each
 * delivery to drop repeats across processes) vs n8n's Webhook node (no verification) in front of
 * the same one-node workflow (trigger → No Operation). Each delivery
 * is signed with the `standardwebhooks` library (as the service signs) before the clock
 * starts; a fixed number is posted with a fixed concurrency. Both nodes answer on receipt, so
 * two rates are reported: accepted (all answers in) and completed (every started execution
 * finished, by the executions' own stoppedAt).
 *
 * A third row, n8n's Webhook node at typeVersion 1, is a control: n8n 2.x skips acquiring an
 * expression isolate for the webhook phase only for its own Webhook node from version 2 on
 * (live-webhooks.js, webhookPhaseNeedsIsolate); every other trigger, ours included, pays it.
 */
const { randomUUID } = require('node:crypto');
const wf = require('../lib/workflows');
const { executionCount } = require('../lib/n8n');
const { newSecret, signedDeliveries } = require('../lib/deliveries');
const { postAll } = require('../lib/load');
const { median } = require('../lib/stats');
const { waitFor } = require('../../dev/wait-for');

const CONCURRENCY = 10;
const WARM_UP = 50;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until the workflow has `target` executions, all finished; returns their last stoppedAt. */
function waitForExecutions(n8n, workflowId, target, since, timeoutMs = 180000) {
	let count = 0;
	return waitFor(
		async () => {
			count = await executionCount(n8n, workflowId);
			if (count < target) return null;
			const list = await n8n.executions(workflowId, { limit: 250 });
			const recent = list.filter((e) => Date.parse(e.startedAt) >= since - 1000);
			if (!recent.every((e) => e.stoppedAt)) return null;
			return {
				count,
				lastStop: Math.max(...recent.map((e) => Date.parse(e.stoppedAt))),
				failedInLast250: recent.filter((e) => e.status !== 'success').length,
			};
		},
		{ timeoutMs, intervalMs: 100, what: () => `${target} finished executions (${count} so far)` },
	);
}

/** A credential holding the signing secret, for our trigger's version 2 (created once per n8n). */
async function signingSecretCredential(n8n, secret) {
	return n8n.createCredential({
		name: `Signing secret (bench ${randomUUID().slice(0, 8)})`,
		type: 'dynamicQrSigningSecretApi',
		data: { signingSecret: secret },
	});
}

/**
 * The triggers compared, by key: `ours` (v1, secret in a parameter), `oursV2` (secret in a
 * credential), `webhookNode` (n8n's Webhook node v2), `careful` (the Webhook node, a Code node
 * checking the signature and Remove Duplicates: what a user builds for the same promises),
 * `webhookNodeV1` (the control).
 * `webhookBase` is where production webhooks are sent (a queue cluster's balancer).
 */
async function createVariants(n8n, secret, keys, webhookBase = n8n.url) {
	const variants = {};
	for (const key of keys) {
		if (key === 'ours' || key === 'oursV2') {
			const version = key === 'ours' ? 1 : 2;
			const credential = version === 2 ? await signingSecretCredential(n8n, secret) : undefined;
			const created = await n8n.createWorkflow(
				wf.triggerOurs({ secret, webhookId: randomUUID(), version, credential }),
			);
			variants[key] = {
				label: `Dynamic QR Trigger v${version} (verifies every signature, drops repeats across processes)`,
				workflowId: created.id,
				url: `${webhookBase}/${wf.webhookPaths.ours(created.webhookIds[wf.NAMES.trigger])}`,
			};
		} else if (key === 'careful') {
			const path = `bench-careful-${randomUUID()}`;
			const created = await n8n.createWorkflow(
				wf.triggerCareful({ path, webhookId: randomUUID(), secret }),
			);
			variants[key] = {
				label:
					"what a careful user builds: n8n's Webhook node → Code (signature, node:crypto) → Remove Duplicates on webhook-id",
				workflowId: created.id,
				url: `${webhookBase}/${wf.webhookPaths.webhookNode(path)}`,
			};
		} else {
			const typeVersion = key === 'webhookNode' ? 2 : 1;
			const path = `bench-v${typeVersion}-${randomUUID()}`;
			const created = await n8n.createWorkflow(
				wf.triggerWebhook({ path, webhookId: randomUUID(), typeVersion }),
			);
			variants[key] = {
				label:
					typeVersion === 2
						? "n8n's Webhook node v2 (no verification)"
						: "control: n8n's Webhook node v1 (no verification; pays the isolate like every other trigger)",
				workflowId: created.id,
				url: `${webhookBase}/${wf.webhookPaths.webhookNode(path)}`,
			};
		}
	}
	return variants;
}

async function run({
	n8n,
	repeats,
	deliveries: perRun,
	log,
	keys = ['ours', 'oursV2', 'webhookNode', 'careful', 'webhookNodeV1'],
	webhookBase,
}) {
	const secret = newSecret();
	const variants = await createVariants(n8n, secret, keys, webhookBase);
	for (const variant of Object.values(variants)) await n8n.activate(variant.workflowId);
	const results = Object.fromEntries(Object.entries(variants).map(([key, v]) => [key, { label: v.label, runs: [] }]));
	try {
		// Warm-up (not measured): every path loaded and JIT-compiled, and every delivery accepted.
		for (const [key, variant] of Object.entries(variants)) {
			const before = await executionCount(n8n, variant.workflowId);
			const warm = await postAll(variant.url, signedDeliveries(secret, WARM_UP), { concurrency: CONCURRENCY });
			if (warm.statuses[200] !== WARM_UP) {
				throw new Error(`${key}: warm-up deliveries answered ${JSON.stringify(warm.statuses)} (expected ${WARM_UP} × 200)`);
			}
			await waitForExecutions(n8n, variant.workflowId, before + WARM_UP, warm.startedAt);
		}
		for (let r = 0; r < repeats; r++) {
			log(`repeat ${r + 1} of ${repeats}`);
			const order = r % 2 ? Object.entries(variants).reverse() : Object.entries(variants);
			for (const [key, variant] of order) {
				const before = await executionCount(n8n, variant.workflowId);
				const list = signedDeliveries(secret, perRun);
				const load = await postAll(variant.url, list, { concurrency: CONCURRENCY });
				const accepted = load.statuses[200] ?? 0;
				const done = await waitForExecutions(n8n, variant.workflowId, before + accepted, load.startedAt);
				const result = {
					deliveries: perRun,
					accepted,
					statuses: load.statuses,
					executions: done.count - before,
					failedExecutions: done.failedInLast250,
					acceptedPerSec: accepted / ((load.endedAt - load.startedAt) / 1000),
					completedPerSec: accepted / ((Math.max(done.lastStop, load.endedAt) - load.startedAt) / 1000),
					medianLatencyMs: median(load.latenciesMs),
				};
				log(
					`  ${key}: ${result.completedPerSec.toFixed(0)}/s completed, ${result.acceptedPerSec.toFixed(0)}/s accepted, ${accepted}/${perRun} accepted, ${result.executions} executions`,
				);
				results[key].runs.push(result);
				await sleep(500); // let the last executions' saves settle before the next variant
			}
		}
	} finally {
		for (const variant of Object.values(variants)) await n8n.deactivate(variant.workflowId).catch(() => {});
	}
	return { concurrency: CONCURRENCY, deliveries: perRun, results };
}

module.exports = { run, createVariants };
