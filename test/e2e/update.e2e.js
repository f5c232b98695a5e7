'use strict';
/**
 * Updating the package under active workflows, as a user does: n8n runs version 0.1.0 as packed
 * from commit c185cf0 (test/fixtures; the first version that keeps its delivery record in static
 * data) with an active webhook trigger (version 1) and an active polling trigger that have already
 * processed deliveries and leads. Then the package folder is replaced in place by this build's pack
 * and n8n restarted on the same user folder, as an update does. Afterwards new deliveries verify,
 * deliveries from before the update re-sent start nothing, no lead is emitted twice, and the
 * service holds exactly the one endpoint it had. A workflow of Dynamic QR nodes saved with 0.1.0
 * (version 1: mixed-type fields, per-type fields) creates the same codes after the update, its
 * nodes still at version 1.
 *
 * Run with `npm run test:e2e`, on the current n8n line and the last 1.x line.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startN8n, N8N_VERSIONS } = require('../../dev/n8n/instance');
const { freePort } = require('../../dev/ports');
const { startSandbox } = require('../../dev/sandbox');
const { CREDENTIAL_NAME } = require('../../dev/examples');
const { waitFor } = require('../../dev/wait-for');
const {
	endpointsAt,
	MIXED_TYPE_CODES,
	MIXED_TYPE_ROWS,
	mixedTypesWorkflow,
	pollingTriggerWorkflow,
	sandboxApi,
	triggerWorkflow,
} = require('./helpers');

const RELEASE_0_1_0 = path.join(
	__dirname,
	'..',
	'fixtures',
	'n8n-nodes-dynamic-qr-0.1.0-c185cf0.tgz',
);
const TRIGGER = 'Dynamic QR Trigger';
const POLLING = 'Dynamic QR Polling Trigger';

/**
 * What a run of that workflow made: each create node's codes as [type, payload], or "failed" for
 * a row it could not create (the per-type node has no Link in Bio fields; the wording may differ).
 */
const madeBy = (run) =>
	Object.fromEntries(
		['Mixed fields', 'Per-type fields'].map((node) => [
			node,
			run.items(node).map(({ json }) => (json.error ? 'failed' : [json.type, json.payload])),
		]),
	);

/** Dynamic QR Polling Trigger (New Lead on the sandbox's card, every minute) → No Operation. */
const pollingWorkflow = (cardId) =>
	pollingTriggerWorkflow('Update: polling trigger', { event: 'newLead', cardId });

describe.each([
	['current', N8N_VERSIONS.current],
	['previous', N8N_VERSIONS.previous],
])('updating the package in n8n %s (%s) under active triggers', (_line, version) => {
	const log = (line) => process.stderr.write(`[update ${version}] ${line}\n`);
	let sandbox;
	let n8n;
	let userFolder;
	let port;
	// What the first n8n (with 0.1.0) left, for the checks after the update.
	const before = {};

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-update-${version}-`));
		// The same port after the restart: the endpoint at the service holds the webhook URL.
		port = await freePort();
	}, 60000);

	afterAll(async () => {
		await n8n?.stop();
		if (process.env.E2E_KEEP !== '1') fs.rmSync(userFolder, { recursive: true, force: true });
		await sandbox?.close();
	}, 60000);

	const installedPackage = () =>
		path.join(userFolder, '.n8n', 'nodes', 'node_modules', 'n8n-nodes-dynamic-qr');
	const executionsOf = async (workflowId) =>
		(await n8n.executions(workflowId)).filter((execution) => execution.mode !== 'manual');
	/** The executions once there are at least `count` and all of them have finished. */
	const settled = (workflowId, count, what, timeoutMs = 60000) =>
		waitFor(
			async () => {
				const list = await executionsOf(workflowId);
				const done = list.every((run) => !['new', 'running', 'waiting'].includes(run.status));
				return list.length >= count && done ? list : null;
			},
			{ what, timeoutMs },
		);
	/** The items each execution's trigger emitted, oldest execution first. */
	const emitted = async (executions, nodeName) => {
		const result = [];
		for (const summary of [...executions].sort((a, b) => Number(a.id) - Number(b.id))) {
			const execution = await n8n.execution(summary.id);
			expect(execution.status).toBe('success');
			result.push(execution.items(nodeName).map((item) => item.json));
		}
		return result;
	};
	const newLead = async (name) => (await sandbox.control('POST', '/leads', { name })).data;

	test('with 0.1.0: both triggers active, deliveries and leads processed', async () => {
		n8n = await startN8n({ version, log, userFolder, port, tarball: RELEASE_0_1_0 });
		// 0.1.0's layout: each node in a folder of its own.
		expect(
			fs.existsSync(
				path.join(installedPackage(), 'dist/nodes/DynamicQrTrigger/DynamicQrTrigger.node.js'),
			),
		).toBe(true);
		await n8n.createCredential({
			name: CREDENTIAL_NAME,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});

		const trigger = await n8n.createWorkflow(triggerWorkflow(['lead.created', 'scan.created']));
		before.webhookUrl = n8n.webhookUrl(trigger.webhookIds[TRIGGER]);
		await n8n.activate(trigger.id);
		const [endpoint] = await endpointsAt(sandbox, before.webhookUrl, 1);
		before.trigger = trigger.id;
		before.endpointId = endpoint.id;

		const polling = await n8n.createWorkflow(pollingWorkflow(sandbox.cardId));
		await n8n.activate(polling.id);
		before.polling = polling.id;
		// Activation polls once and stores the cursor; a lead made before that would count as old.
		await waitFor(
			async () => (await n8n.workflow(polling.id)).staticData?.[`node:${POLLING}`]?.cursor,
			{ what: 'the polling cursor stored at activation', timeoutMs: 60000 },
		);

		const code = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: `Update ${version}`,
				type: 'url',
				payload: { url: 'https://example.com/update' },
			})
		).data;
		before.code = code;
		await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		before.lead = await newLead('Before the update');
		const triggered = await settled(trigger.id, 2, 'the scan and the lead before the update');
		expect(triggered).toHaveLength(2);
		const polled = await settled(polling.id, 1, 'the poll that emits the first lead', 150000);
		expect((await emitted(polled, POLLING)).flat().map((lead) => lead.id)).toEqual([
			before.lead.id,
		]);

		// Dynamic QR nodes as 0.1.0 saves them (version 1), run once.
		const actions = await n8n.createWorkflow(
			mixedTypesWorkflow(`update ${version}`, MIXED_TYPE_ROWS, { version2: false }),
		);
		const actionsRun = await n8n.runWorkflow(actions.id);
		expect(actionsRun.status).toBe('success');
		before.actions = actions.id;
		before.made = madeBy(actionsRun);
		expect(before.made['Mixed fields']).toEqual(MIXED_TYPE_CODES);
		expect(before.made['Per-type fields'].map((made) => made === 'failed')).toEqual([
			false,
			false,
			true,
			true,
		]);

		const stored = (await n8n.workflow(trigger.id)).staticData?.[`node:${TRIGGER}`];
		expect(stored).toMatchObject({ endpointId: endpoint.id, url: before.webhookUrl });
		expect(stored.deliveries).toHaveLength(2 * 18);
		before.deliveries = (
			await sandbox.control('GET', `/deliveries?endpoint_id=${endpoint.id}`)
		).data;
		expect(before.deliveries.map((delivery) => delivery.status)).toEqual([
			'succeeded',
			'succeeded',
		]);

		await n8n.stop({ keep: true });
		n8n = undefined;
	}, 600000);

	test('after the package is replaced in place and n8n restarted: the same endpoint, new deliveries verify, nothing starts twice', async () => {
		expect(before.endpointId).toBeDefined();
		// This build's pack, installed over 0.1.0 in the same user folder.
		n8n = await startN8n({ version, log, userFolder, port });
		expect(fs.existsSync(path.join(installedPackage(), 'dist/nodes/DynamicQrTrigger'))).toBe(false);
		expect(
			fs.existsSync(path.join(installedPackage(), 'dist/nodes/DynamicQr/DynamicQrTrigger.node.js')),
		).toBe(true);
		expect((await n8n.workflow(before.trigger)).active).toBe(true);
		expect((await n8n.workflow(before.polling)).active).toBe(true);

		// The service holds exactly the endpoint it had: not replaced, not doubled.
		const endpoints = (await sandbox.control('GET', '/webhooks')).data;
		expect(endpoints.map((endpoint) => endpoint.id)).toEqual([before.endpointId]);
		const triggeredBefore = (await executionsOf(before.trigger)).length;
		expect(triggeredBefore).toBe(2);

		// Deliveries from before the update, re-sent (same webhook-id, freshly signed): answered,
		// started nothing.
		for (const delivery of before.deliveries) {
			const resend = await sandbox.control('POST', `/deliveries/${delivery.id}/resend`);
			expect(resend.data.attempt.status_code).toBe(200);
		}

		// A new scan verifies against the secret 0.1.0 stored, and starts the workflow. Once its
		// execution exists, the re-sends before it were answered, so the count shows they started none.
		const scan = (await sandbox.control('POST', '/scans', { qr_code_id: before.code.id })).data;
		const triggered = await settled(
			before.trigger,
			triggeredBefore + 1,
			'the scan after the update',
		);
		expect(triggered).toHaveLength(triggeredBefore + 1);
		const events = (await emitted(triggered, TRIGGER)).flat();
		expect(events.map((event) => event.type).sort()).toEqual([
			'lead.created',
			'scan.created',
			'scan.created',
		]);
		expect(new Set(events.map((event) => event.webhook_id)).size).toBe(3);
		const scanned = events.filter((event) => event.data?.scanned_at === scan.scanned_at);
		expect(scanned).toHaveLength(1);
		expect(scanned[0].data).toMatchObject({ qr_code: { id: before.code.id } });

		// The polling trigger goes on from its stored cursor: the new lead once, the old one never again.
		const lead = await newLead('After the update');
		const polled = await waitFor(
			async () => {
				const list = await settled(before.polling, 1, 'the polling executions');
				const leads = (await emitted(list, POLLING)).flat().map((item) => item.id);
				return leads.includes(lead.id) ? leads : null;
			},
			{ what: 'the poll that emits the lead made after the update', timeoutMs: 150000 },
		);
		expect(polled).toEqual([before.lead.id, lead.id]);
		// The webhook trigger got that lead too, once.
		const all = await settled(before.trigger, triggeredBefore + 2, 'the lead after the update');
		expect(all).toHaveLength(triggeredBefore + 2);

		expect((await sandbox.control('GET', '/webhooks')).data.map((endpoint) => endpoint.id)).toEqual(
			[before.endpointId],
		);

		// The Dynamic QR nodes saved with 0.1.0 stay at version 1 and make the same codes.
		const actions = await n8n.workflow(before.actions);
		expect(
			actions.nodes
				.filter((node) => node.type === 'n8n-nodes-dynamic-qr.dynamicQr')
				.map((node) => node.typeVersion),
		).toEqual([1, 1]);
		const actionsRun = await n8n.runWorkflow(before.actions);
		expect(actionsRun.status).toBe('success');
		expect(madeBy(actionsRun)).toEqual(before.made);
	}, 600000);
});
