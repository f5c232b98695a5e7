'use strict';
/**
 * End-to-end in queue mode: the packed package in an n8n cluster as production installations
 * scale it (dev/n8n/queue.js): a main process, one worker and two webhook processors on
 * PostgreSQL and Redis, behind a round-robin load balancer whose URL is n8n's webhook URL.
 *
 * Every result is read back from n8n's executions (REST API of main); that an execution ran on
 * the worker is read from the worker's own log ("Worker finished execution <id> (job <n>)"),
 * and which webhook processor handed it over from that processor's log ("Enqueued execution
 * <id> (job <n>)"). Waits are bounded polls; the counts are what is asserted.
 *
 * Run with `npx jest -c jest.queue.config.js` (needs PostgreSQL and Redis on 127.0.0.1).
 */
const { spawn } = require('node:child_process');
const crypto = require('node:crypto');
const os = require('node:os');

const { startQueueCluster } = require('../../dev/n8n/queue');
const { movableClock } = require('../../dev/n8n/movable-clock');
const { N8N_VERSIONS } = require('../../dev/n8n/runtime');
const { startSandbox } = require('../../dev/sandbox');
const { CREDENTIAL_NAME } = require('../../dev/examples');
const { waitFor } = require('../../dev/wait-for');
const { isRecorded } = require('../support/delivery-record');
const { useMovedTime, passTime, movedSeconds, movesWith } = require('../support/time');
const {
	postForged,
	REFUSED_FOR_MS,
	sandboxApi,
	getManyWorkflow,
	triggerWorkflow,
	pollingTriggerWorkflow,
	listNodes,
	endpointsAt: endpointsAtSandbox,
} = require('../e2e/helpers');
const { TYPES, node, dynamicQr, chain, workflow } = require('../../dev/n8n/workflow-builder');

const VERSION = N8N_VERSIONS.current;
const PROCESSORS = 2;
const log = (line) => process.stderr.write(`[e2e-queue] ${line}\n`);

let cluster;
let sandbox;
let clock;

// Every process's clock moves with this file's (the sandbox's) in the last test, as time does.
useMovedTime();

beforeAll(
	async () => {
		sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 60000 });
		clock = await movableClock({ seconds: movedSeconds(), log });
		movesWith(clock);
		cluster = await startQueueCluster({
			version: VERSION,
			webhookProcessors: PROCESSORS,
			log,
			env: clock.env,
		});
		log(`cluster start timings (s): ${JSON.stringify(cluster.timings)}`);
		await cluster.createCredential({
			name: CREDENTIAL_NAME,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
	},
	30 * 60 * 1000,
);

afterAll(async () => {
	if (cluster) {
		const { database, queuePrefix } = cluster;
		// E2E_KEEP=1 keeps the user folder (every process's log) to look into.
		await cluster.stop({ keepFolder: process.env.E2E_KEEP === '1' });
		// What the cluster made in the shared PostgreSQL and Redis is gone.
		if (cluster.databaseExists()) throw new Error(`Database ${database} was not dropped`);
		const left = cluster.redisKeyCount();
		if (left !== 0) throw new Error(`${left} Redis keys with prefix ${queuePrefix} were left`);
	}
	await sandbox?.close();
	clock?.remove();
}, 120000);

// ---------------------------------------------------------------------------------------------
// Helpers

/** Every execution of a workflow, oldest first (the REST client reads n8n's list page by page). */
const allExecutions = async (workflowId) => (await cluster.executions(workflowId)).reverse();

const UNFINISHED = new Set(['new', 'running', 'waiting', 'unknown']);

/** The executions once there are at least `count` and every one has finished. */
const settledExecutions = (workflowId, count, what, timeoutMs = 240000) =>
	waitFor(
		async () => {
			const list = await allExecutions(workflowId);
			return list.length >= count && list.every((execution) => !UNFINISHED.has(execution.status))
				? list
				: null;
		},
		{ what, timeoutMs, intervalMs: 1000 },
	);

/** The webhook endpoints registered at the sandbox for `url`, once there are `count`. */
const endpointsAt = (url, count) => endpointsAtSandbox(sandbox, url, count, { timeoutMs: 60000 });

/** The sandbox's deliveries to an endpoint once every one of `eventIds` has succeeded. */
const deliveredAll = (endpointId, eventIds, timeoutMs = 120000) =>
	waitFor(
		async () => {
			const deliveries = (await sandbox.control('GET', `/deliveries?endpoint_id=${endpointId}`))
				.data;
			const ofEvents = deliveries.filter((delivery) => eventIds.includes(delivery.event_id));
			return ofEvents.length === eventIds.length &&
				ofEvents.every((delivery) => delivery.status === 'succeeded')
				? ofEvents
				: null;
		},
		{ what: `${eventIds.length} succeeded deliveries`, timeoutMs, intervalMs: 500 },
	);

/** The trigger's event in each execution: `{ executionId, status, webhookId, type, eventId }`. */
async function triggerEvents(executions) {
	const events = [];
	for (const summary of executions) {
		const execution = await cluster.execution(summary.id);
		const [item] = execution.items('Dynamic QR Trigger');
		events.push({
			executionId: summary.id,
			status: execution.status,
			mode: execution.mode,
			webhookId: item.json.webhook_id,
			eventId: item.json.id,
			type: item.json.type,
			received: execution.items('Received').length,
		});
	}
	return events;
}

/** How many executions each webhook-id started. */
function countByWebhookId(events) {
	const counts = new Map();
	for (const event of events) counts.set(event.webhookId, (counts.get(event.webhookId) ?? 0) + 1);
	return counts;
}

/**
 * A workflow's executions once no new one has appeared for a while (re-sends that start nothing
 * leave no trace to wait for) and every one has finished.
 */
async function quietExecutions(workflowId) {
	let previous = -1;
	return await waitFor(
		async () => {
			const list = await allExecutions(workflowId);
			const settled =
				list.length === previous && list.every((execution) => !UNFINISHED.has(execution.status));
			previous = list.length;
			return settled ? list : null;
		},
		{ what: 'the executions to settle', timeoutMs: 300000, intervalMs: 5000 },
	);
}

/** Which webhook processor's log says it enqueued the execution (index), or -1. */
function enqueuedBy(executionId, logs) {
	const line = `Enqueued execution ${executionId} (job `;
	const owners = logs
		.map((text, index) => (text.includes(line) ? index : -1))
		.filter((i) => i >= 0);
	return owners.length === 1 ? owners[0] : -1;
}

/**
 * Re-sends a delivery as the dashboard's manual resend does (same webhook-id, fresh signature),
 * routed by the balancer to a different webhook processor than the one that answered it first.
 * Resolves with `{ first, second, status }`.
 */
const routeOverrides = new Map();
function installRouteOverrides() {
	cluster.balancer.route = (req) => routeOverrides.get(req.headers['webhook-id']);
}
async function resendToAnotherProcessor(delivery) {
	const first = cluster.balancer.firstProcessorOf(delivery.event_id);
	if (first === undefined) throw new Error(`No processor has answered ${delivery.event_id} yet`);
	const second = (first + 1) % PROCESSORS;
	routeOverrides.set(delivery.event_id, second);
	try {
		const answer = await sandbox.control('POST', `/deliveries/${delivery.id}/resend`);
		return { first, second, status: answer.data.attempt.status_code };
	} finally {
		routeOverrides.delete(delivery.event_id);
	}
}

/** A CPU-bound process per core beside the cluster, until the function it returns is called. */
function busyCores() {
	const burners = os
		.cpus()
		.map(() => spawn(process.execPath, ['-e', 'for (;;);'], { stdio: 'ignore' }));
	return () => burners.forEach((burner) => burner.kill('SIGKILL'));
}

/** Start → a list of `count` rows → one item per row → Create (Concurrent Requests 5). */
function bulkCreateWorkflow(prefix, count) {
	const rows = Array.from({ length: count }, (_, index) => ({
		row_id: `${prefix}-${index}`,
		name: `${prefix} ${String(index).padStart(2, '0')}`,
		url: `https://example.com/bulk/${index}`,
	}));
	const nodes = [
		node(TYPES.manualTrigger, {}, { name: 'Start' }),
		...listNodes(rows),
		dynamicQr(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ $json.name }}',
				type: 'url',
				payloadInput: 'fields',
				payload_url_url: '={{ $json.url }}',
				additionalFields: { idempotencyKey: "={{ 'bulk-' + $json.row_id }}" },
				requestOptions: { concurrency: 5 },
			},
			{ name: 'Create' },
		),
	];
	return {
		workflow: workflow(
			'Queue: bulk create',
			nodes,
			chain('Start', 'List', 'One item per row', 'Create'),
		),
		rows,
	};
}

/** Dynamic QR Polling Trigger (New QR Code, every minute) → No Operation. */
const pollingWorkflow = () =>
	pollingTriggerWorkflow('Queue: polling trigger', { event: 'newQrCode' });

/** A scan of `code` through the sandbox's control API (a signed delivery follows). */
const scan = (code) => sandbox.control('POST', '/scans', { qr_code_id: code.id });

// ---------------------------------------------------------------------------------------------

describe(`n8n ${VERSION} in queue mode (main, worker, ${PROCESSORS} webhook processors)`, () => {
	test('the cluster runs on its own database and queue prefix; the balancer reaches main and the processors', async () => {
		expect(cluster.databaseExists()).toBe(true);
		expect(cluster.redisKeyCount()).toBeGreaterThan(0);
		expect(cluster.worker.running).toBe(true);
		expect(cluster.webhookProcessors.map((processor) => processor.running)).toEqual([true, true]);
		const settings = await fetch(`${cluster.url}/rest/settings`);
		expect(settings.status).toBe(200);
		// An unknown production webhook is answered by a webhook processor (404), not by main.
		const unknown = await fetch(`${cluster.url}/webhook/${crypto.randomUUID()}/webhook`, {
			method: 'POST',
		});
		expect(unknown.status).toBe(404);
		const last = cluster.balancer.records.at(-1);
		expect(last).toMatchObject({ target: 'webhook', status: 404 });
		expect([0, 1]).toContain(last.processor);
		expect(cluster.workerLog()).toContain('n8n worker is now ready');
	});

	describe('Dynamic QR Trigger behind the balancer', () => {
		let code;
		let workflowId;
		let webhookUrl;
		let endpointId;
		/** Events whose executions have been checked so far (by webhook-id). */
		const seen = new Set();

		test('activation registers exactly one endpoint at the sandbox, with the balancer URL', async () => {
			code = (
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: 'Queue trigger',
					type: 'url',
					payload: { url: 'https://example.com/queue' },
				})
			).data;
			const created = await cluster.createWorkflow(
				triggerWorkflow(['lead.created', 'scan.created']),
			);
			workflowId = created.id;
			webhookUrl = cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']);
			expect(webhookUrl.startsWith(`${cluster.balancer.url}/webhook/`)).toBe(true);

			await cluster.activate(workflowId);
			const registered = await endpointsAt(webhookUrl, 1);
			expect(registered[0]).toMatchObject({
				status: 'active',
				events: ['lead.created', 'scan.created'],
			});
			endpointId = registered[0].id;
			// Exactly one endpoint in the workspace: no second registration by another process.
			expect((await sandbox.control('GET', '/webhooks')).data).toHaveLength(1);
		});

		test('signed scans and leads: one execution per event, each run on the worker, delivered through both processors', async () => {
			const before = cluster.balancer.webhookRecords().length;
			for (let index = 0; index < 6; index += 1) await scan(code);
			for (let index = 0; index < 4; index += 1) {
				await sandbox.control('POST', '/leads', {
					name: `Lead ${index}`,
					email: `l${index}@example.com`,
				});
			}
			const deliveries = (await sandbox.control('GET', `/deliveries?endpoint_id=${endpointId}`))
				.data;
			expect(deliveries).toHaveLength(10);
			const eventIds = deliveries.map((delivery) => delivery.event_id);
			await deliveredAll(endpointId, eventIds);

			const executions = await settledExecutions(workflowId, 10, '10 executions');
			expect(executions).toHaveLength(10);
			const events = await triggerEvents(executions);
			expect(events.map((event) => event.status)).toEqual(Array(10).fill('success'));
			expect(events.every((event) => event.mode === 'webhook' && event.received === 1)).toBe(true);
			expect(events.map((event) => event.webhookId).sort()).toEqual([...eventIds].sort());
			expect(events.filter((event) => event.type === 'scan.created')).toHaveLength(6);
			expect(events.filter((event) => event.type === 'lead.created')).toHaveLength(4);
			for (const event of events) seen.add(event.webhookId);

			// Run by the worker; handed over by exactly one webhook processor each.
			await waitFor(() => executions.every((execution) => cluster.ranOnWorker(execution.id)), {
				what: 'the worker log to list every execution',
				timeoutMs: 30000,
			});
			const logs = [0, 1].map((index) => cluster.webhookLog(index));
			const owners = executions.map((execution) => enqueuedBy(execution.id, logs));
			expect(owners.every((owner) => owner === 0 || owner === 1)).toBe(true);
			expect(new Set(owners)).toEqual(new Set([0, 1]));
			expect(cluster.mainLog()).not.toMatch(/Worker finished execution/);

			// The balancer saw each delivery once, answered 200, from both processors.
			const records = cluster.balancer.webhookRecords().slice(before);
			expect(records).toHaveLength(10);
			expect(records.every((record) => record.status === 200)).toBe(true);
			expect(new Set(records.map((record) => record.processor))).toEqual(new Set([0, 1]));
			expect(new Set(records.map((record) => record.webhookId))).toEqual(new Set(eventIds));
		});

		test('forged deliveries are refused by both processors: once refusals have gone on for 20 s, one on each fails an execution that says so; the others answer 401 and start nothing', async () => {
			const executionsBefore = (await allExecutions(workflowId)).length;
			const body = JSON.stringify({
				id: 'evt_forged',
				type: 'scan.created',
				created_at: new Date().toISOString(),
				data: { qr_code: { id: code.id } },
			});
			const statuses = [];
			const send = async (processor, signed) => {
				const headers = {
					'content-type': 'application/json',
					'x-test-processor': String(processor),
				};
				const answer = signed
					? await postForged(webhookUrl, body, headers)
					: await fetch(webhookUrl, { method: 'POST', headers, body });
				statuses.push([processor, answer.status]);
			};
			cluster.balancer.route = (req) => Number(req.headers['x-test-processor']);
			try {
				// A moment's refusal on each processor, then, refusals having gone on for
				// REFUSED_FOR_MS (trigger/refusals.ts, kept per process), the one each reports.
				for (const processor of [0, 1]) await send(processor, true);
				await new Promise((resolve) => setTimeout(resolve, REFUSED_FOR_MS));
				for (const processor of [0, 1]) {
					await send(processor, true);
					await send(processor, false);
				}
			} finally {
				cluster.balancer.route = undefined;
			}
			// Unsigned requests are no deliveries: refused, never reported.
			expect(statuses).toEqual([
				[0, 401],
				[1, 401],
				[0, 500],
				[0, 401],
				[1, 500],
				[1, 401],
			]);
			const forgedRecords = cluster.balancer.webhookRecords().slice(-6);
			expect(forgedRecords.map((record) => [record.processor, record.status])).toEqual(statuses);

			// A genuine scan afterwards: once its execution exists, the forged ones have long been
			// answered, so the count shows they started only the two failed executions.
			await scan(code);
			const after = await settledExecutions(workflowId, executionsBefore + 3, 'the genuine scan');
			expect(after).toHaveLength(executionsBefore + 3);
			const added = after.slice(executionsBefore);
			const failed = added.filter((execution) => execution.status === 'error');
			expect(failed).toHaveLength(2);
			for (const summary of failed) {
				const execution = await cluster.execution(summary.id);
				expect(execution.error.message).toBe(
					'A delivery was refused: no v1 signature in webhook-signature matches the body',
				);
				expect(Object.keys(execution.runData)).not.toContain('Received');
			}
			const events = await triggerEvents(added.filter((execution) => execution.status !== 'error'));
			expect(events).toHaveLength(1);
			expect(events[0].eventId).not.toBe('evt_forged');
			seen.add(events[0].webhookId);
		});

		test('a webhook processor restarted between deliveries: every delivery sent while it is down ends in exactly one execution', async () => {
			const executionsBefore = (await allExecutions(workflowId)).length;
			const deliveriesBefore = (
				await sandbox.control('GET', `/deliveries?endpoint_id=${endpointId}`)
			).data.map((delivery) => delivery.id);
			const recordsBefore = cluster.balancer.records.length;
			const webhookAnswers = () =>
				cluster.balancer.records
					.slice(recordsBefore)
					.filter((record) => record.target === 'webhook' && record.status !== undefined);

			// Processor 1 stops with no request in flight (every earlier delivery was answered) and
			// gets requests again only once n8n says it is listening: n8n stops and starts a webhook
			// processor with requests in flight unsafely (docs/n8n-behaviours.md, 12).
			const timeline = { stopSent: Date.now() };
			await cluster.stopWebhookProcessor(1);
			timeline.exited = Date.now();
			// Round robin: about half of these meet the stopped processor (502), to be retried.
			let sent = 0;
			for (; sent < 6; sent += 1) await scan(code);
			await waitFor(() => webhookAnswers().length >= sent, {
				what: `the balancer to answer the ${sent} deliveries`,
				timeoutMs: 30000,
			});
			// Started: n8n has logged that it waits for requests (dev/n8n/queue.js).
			const processor = await cluster.startWebhookProcessor(1);
			expect(processor.running).toBe(true);
			timeline.ready = Date.now();
			log(
				`restart of webhook-1 took ${Math.round(processor.startSeconds)} s to start; ${sent} scans sent while it was down`,
			);
			// A few more once it is back.
			for (let index = 0; index < 4; index += 1) await scan(code);
			sent += 4;

			const newDeliveries = () =>
				sandbox
					.control('GET', `/deliveries?endpoint_id=${endpointId}`)
					.then((answer) =>
						answer.data.filter((delivery) => !deliveriesBefore.includes(delivery.id)),
					);
			expect(await newDeliveries()).toHaveLength(sent);

			// Deliveries that met the stopped processor (502 at the balancer) are retried by the
			// sandbox one minute later on its clock: advance it until every delivery has succeeded.
			const final = await waitFor(
				async () => {
					const list = await newDeliveries();
					if (list.every((delivery) => delivery.status === 'succeeded')) return list;
					if (list.some((delivery) => delivery.status === 'failed')) {
						throw new Error('a delivery failed for good');
					}
					await sandbox.control('POST', '/clock/advance', { seconds: 61 });
					return null;
				},
				{ what: 'every delivery to succeed', timeoutMs: 180000, intervalMs: 1000 },
			);
			const records = cluster.balancer.records.slice(recordsBefore);
			const refused = records.filter((record) => record.status === 502);
			log(
				`restart: ${records.length} requests through the balancer, ${refused.length} answered 502 (processor down)`,
			);
			// The test only means something if deliveries did meet the stopped processor.
			expect(refused.length).toBeGreaterThan(0);
			expect(refused.every((record) => record.processor === 1)).toBe(true);
			expect(final.some((delivery) => delivery.attempts.length > 1)).toBe(true);

			let executions;
			try {
				executions = await settledExecutions(
					workflowId,
					executionsBefore + sent,
					`${sent} executions after the restart`,
				);
			} catch (error) {
				// Name the deliveries that have no execution, with what the balancer saw of each.
				const list = await allExecutions(workflowId);
				const started = countByWebhookId(await triggerEvents(list.slice(executionsBefore)));
				for (const delivery of final.filter((entry) => !started.has(entry.event_id))) {
					const seen = cluster.balancer
						.recordsOf(delivery.event_id)
						.map(({ at, answeredAt, processor, status, answer }) => ({
							at,
							answeredAt,
							processor,
							status,
							answer,
						}));
					error.message += `\nno execution for ${delivery.event_id}: ${JSON.stringify(seen)}`;
				}
				error.message += `\nprocessor 1: ${JSON.stringify(timeline)}`;
				error.message += `\nwebhook-1's log ends:\n${cluster.webhookLog(1).split('\n').slice(-40).join('\n')}`;
				throw error;
			}
			const events = await triggerEvents(executions.slice(executionsBefore));
			const counts = countByWebhookId(events);
			const expected = final.map((delivery) => delivery.event_id).sort();
			expect([...counts.keys()].sort()).toEqual(expected);
			const repeated = [...counts.entries()].filter(([, count]) => count !== 1);
			expect(repeated).toEqual([]);
			expect(events.every((event) => event.status === 'success')).toBe(true);
			await waitFor(() => events.every((event) => cluster.ranOnWorker(event.executionId)), {
				what: 'the worker log to list every execution',
				timeoutMs: 30000,
			});
			for (const event of events) seen.add(event.webhookId);
		});

		test('paused at the service, then deactivated and activated again: the leads shared meanwhile start one execution, caught up by one webhook processor', async () => {
			const before = cluster.balancer.webhookRecords().length;
			const runsBefore = (await allExecutions(workflowId)).length;
			await sandbox.control('POST', `/webhooks/${endpointId}/pause`);
			const missed = [];
			for (let index = 0; index < 3; index += 1) {
				missed.push((await sandbox.control('POST', '/leads', { name: `Missed ${index}` })).data);
			}
			await cluster.deactivate(workflowId);
			await cluster.activate(workflowId);
			[{ id: endpointId }] = await endpointsAt(webhookUrl, 1);

			const executions = await settledExecutions(workflowId, runsBefore + 1, 'the catch-up');
			const catchUps = cluster.balancer
				.webhookRecords()
				.slice(before)
				.filter((record) => String(record.webhookId).startsWith('catchup_'));
			expect(catchUps).toHaveLength(1);
			expect(catchUps[0].status).toBe(200);
			const newest = [...executions].sort((a, b) => Number(b.id) - Number(a.id))[0];
			const run = await cluster.execution(newest.id);
			expect(run.items('Received').map((item) => item.json.id)).toEqual(
				missed.map((lead) => `caught_up:lead.created:${lead.id}`),
			);
			// Nothing more: no second catch-up from the other processor.
			await new Promise((resolve) => setTimeout(resolve, 3000));
			expect(await allExecutions(workflowId)).toHaveLength(runsBefore + 1);
		});

		test('deactivation removes the endpoint', async () => {
			await cluster.deactivate(workflowId);
			expect(await endpointsAt(webhookUrl, 0)).toEqual([]);
			expect(
				(await sandbox.control('GET', '/webhooks')).data.filter(
					(endpoint) => endpoint.id === endpointId,
				),
			).toEqual([]);
			expect(seen.size).toBeGreaterThan(10);
		});
	});

	test('a manual bulk create (30 codes, Concurrent Requests 5) and Get Many with Return All run on the worker', async () => {
		const prefix = `Bulk ${Date.now()}`;
		const { workflow, rows } = bulkCreateWorkflow(prefix, 30);
		const created = await cluster.createWorkflow(workflow);
		const run = await cluster.runWorkflow(created.id, { timeoutMs: 300000 });
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');
		const codes = run.items('Create').map((item) => item.json);
		expect(codes.map((code) => code.name)).toEqual(rows.map((row) => row.name));
		expect(codes.map((code) => code.payload.url)).toEqual(rows.map((row) => row.url));
		expect(new Set(codes.map((code) => code.id)).size).toBe(30);
		const creates = (await sandbox.control('GET', '/requests')).data.filter(
			(request) =>
				request.method === 'POST' &&
				request.path === '/qr-codes' &&
				String(request.idempotency_key).startsWith(`bulk-${prefix}-`),
		);
		expect(creates).toHaveLength(30);
		expect(creates.every((request) => request.status === 201)).toBe(true);
		await waitFor(() => cluster.ranOnWorker(run.id), {
			what: `the worker log to list execution ${run.id}`,
			timeoutMs: 30000,
		});

		const getMany = await cluster.createWorkflow(getManyWorkflow(prefix));
		const listed = await cluster.runWorkflow(getMany.id, { timeoutMs: 300000 });
		expect(listed.error).toBeNull();
		const items = listed.items('Get Many').map((item) => item.json);
		expect(items).toHaveLength(30);
		expect(new Set(items.map((item) => item.id))).toEqual(new Set(codes.map((code) => code.id)));
		await waitFor(() => cluster.ranOnWorker(listed.id), {
			what: `the worker log to list execution ${listed.id}`,
			timeoutMs: 30000,
		});
	});

	test('the polling trigger (New QR Code, every minute) emits each new code once, on the worker', async () => {
		const before = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: 'Polling: before activation',
				type: 'url',
				payload: { url: 'https://example.com/before' },
			})
		).data;
		const created = await cluster.createWorkflow(pollingWorkflow());
		// Activation polls once (n8n's test poll), which sets the cursor: older codes never start it.
		await cluster.activate(created.id);
		try {
			const first = (
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: 'Polling: first',
					type: 'url',
					payload: { url: 'https://example.com/first' },
				})
			).data;
			const emitted = async (count) => {
				const executions = await settledExecutions(
					created.id,
					count,
					`${count} polling execution(s)`,
					200000,
				);
				const result = [];
				for (const summary of executions) {
					const execution = await cluster.execution(summary.id);
					result.push({
						id: summary.id,
						mode: execution.mode,
						status: execution.status,
						ids: execution.items('Dynamic QR Polling Trigger').map((item) => item.json.id),
					});
				}
				return result;
			};
			const [one] = await emitted(1);
			expect(one).toMatchObject({ mode: 'trigger', status: 'success', ids: [first.id] });

			// The next poll must not emit the first code again (the cursor lives in the workflow's
			// static data, which main keeps between polls), only the second one.
			const second = (
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: 'Polling: second',
					type: 'url',
					payload: { url: 'https://example.com/second' },
				})
			).data;
			const both = await emitted(2);
			expect(both).toHaveLength(2);
			expect(both[1]).toMatchObject({ mode: 'trigger', status: 'success', ids: [second.id] });
			const allIds = both.flatMap((execution) => execution.ids);
			expect(allIds).not.toContain(before.id);
			await waitFor(() => both.every((execution) => cluster.ranOnWorker(execution.id)), {
				what: 'the worker log to list the polling executions',
				timeoutMs: 30000,
			});
		} finally {
			await cluster.deactivate(created.id);
		}
	});

	test('a delivered event re-sent (≥100 times) to the other webhook processor, half of them after both restarted, starts no second execution', async () => {
		installRouteOverrides();
		const created = await cluster.createWorkflow(triggerWorkflow(['lead.created']));
		const webhookUrl = cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']);
		await cluster.activate(created.id);
		try {
			const [endpoint] = await endpointsAt(webhookUrl, 1);
			const EVENTS = 100;
			for (let index = 0; index < EVENTS; index += 1) {
				await sandbox.control('POST', '/leads', { name: `Duplicate test ${index}` });
				// A breather every ten, so a 2-core machine is not flooded.
				if (index % 10 === 9) await settledExecutions(created.id, index + 1, `${index + 1} leads`);
			}
			const deliveries = await deliveredAll(
				endpoint.id,
				(await sandbox.control('GET', `/deliveries?endpoint_id=${endpoint.id}`)).data.map(
					(delivery) => delivery.event_id,
				),
			);
			expect(deliveries).toHaveLength(EVENTS);
			await settledExecutions(created.id, EVENTS, `${EVENTS} first executions`);

			// Half the re-sends, then both processors restart (nothing stays in their memory), then
			// the other half: those can only be recognised from the database.
			const resends = [];
			for (const delivery of deliveries.slice(0, EVENTS / 2)) {
				resends.push(await resendToAnotherProcessor(delivery));
			}
			for (let index = 0; index < PROCESSORS; index += 1) {
				await cluster.restartWebhookProcessor(index);
			}
			for (const delivery of deliveries.slice(EVENTS / 2)) {
				resends.push(await resendToAnotherProcessor(delivery));
			}
			expect(resends).toHaveLength(EVENTS);
			// Each re-send really went to the other processor, and was answered 2xx.
			expect(resends.every((resend) => resend.first !== resend.second)).toBe(true);
			for (const delivery of deliveries) {
				const records = cluster.balancer.recordsOf(delivery.event_id);
				expect(records).toHaveLength(2);
				expect(records[1].processor).not.toBe(records[0].processor);
			}
			expect(resends.every((resend) => resend.status >= 200 && resend.status < 300)).toBe(true);

			const executions = await quietExecutions(created.id);
			const events = await triggerEvents(executions);
			const counts = countByWebhookId(events);
			const duplicates = [...counts.values()].reduce((sum, count) => sum + count - 1, 0);
			log(`duplicate executions: ${duplicates}`);
			process.stdout.write(
				`duplicate executions: ${duplicates} (${EVENTS} events, ${resends.length} re-sends to the other processor, ${executions.length} executions)\n`,
			);
			expect(counts.size).toBe(EVENTS);
			expect(duplicates).toBe(0);
		} finally {
			cluster.balancer.route = undefined;
			await cluster.deactivate(created.id);
		}
	});

	test("a workflow's first 40 deliveries arrive at once on both processors, then each is re-sent to the other one, the first delivery first, then all at once, with a CPU-bound process per core beside the cluster: no second execution", async () => {
		installRouteOverrides();
		const target = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: 'Queue burst',
				type: 'url',
				payload: { url: 'https://example.com/burst' },
			})
		).data;
		const created = await cluster.createWorkflow(triggerWorkflow(['scan.created']));
		const webhookUrl = cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']);
		await cluster.activate(created.id);
		const idle = busyCores();
		try {
			const [endpoint] = await endpointsAt(webhookUrl, 1);
			const EVENTS = 40;
			// The sandbox sends each scan's delivery as it happens: 40 at once, the first included.
			await Promise.all(Array.from({ length: EVENTS }, () => scan(target)));
			const deliveries = await deliveredAll(
				endpoint.id,
				(await sandbox.control('GET', `/deliveries?endpoint_id=${endpoint.id}`)).data.map(
					(delivery) => delivery.event_id,
				),
			);
			expect(deliveries).toHaveLength(EVENTS);
			const firsts = deliveries.map((delivery) =>
				cluster.balancer.firstProcessorOf(delivery.event_id),
			);
			expect(new Set(firsts)).toEqual(new Set([0, 1]));
			await settledExecutions(created.id, EVENTS, `${EVENTS} first executions`);
			// Every request of the burst loaded the same copy and n8n saves it whole: the stored
			// record holds every delivery once each processor has sent itself a resync.
			const notRecorded = async () => {
				const { staticData } = await cluster.workflow(created.id);
				const stored = staticData?.['node:Dynamic QR Trigger'];
				return deliveries.filter((delivery) => !isRecorded(stored, delivery.event_id, Date.now()));
			};
			log(
				`burst: ${(await notRecorded()).length} of ${EVENTS} deliveries not in the stored record once the executions settled`,
			);
			await waitFor(async () => ((await notRecorded()).length === 0 ? true : null), {
				what: 'every delivery of the burst in the stored record',
				timeoutMs: 60000,
				intervalMs: 250,
			});

			// Re-sent one after the other, in the order first sent: the first delivery first.
			const resends = [];
			for (const delivery of deliveries) resends.push(await resendToAnotherProcessor(delivery));
			expect(resends.every((resend) => resend.first !== resend.second)).toBe(true);
			expect(resends.every((resend) => resend.status >= 200 && resend.status < 300)).toBe(true);
			// And all at once, each to the processor that did not start it.
			const burst = await Promise.all(deliveries.map(resendToAnotherProcessor));
			expect(burst.every((resend) => resend.status >= 200 && resend.status < 300)).toBe(true);

			const executions = await quietExecutions(created.id);
			const counts = countByWebhookId(await triggerEvents(executions));
			const twice = [...counts].filter(([, count]) => count > 1).map(([id]) => id);
			log(`burst: started twice: ${twice.join(', ') || 'none'}`);
			expect(counts.size).toBe(EVENTS);
			expect(twice).toEqual([]);
		} finally {
			idle();
			cluster.balancer.route = undefined;
			await cluster.deactivate(created.id);
		}
	});

	test('Only at Scan Milestones behind both processors: each code starts one execution per milestone, whichever processor its scans reach, also after both restarted; scans after it start none', async () => {
		const CODES = 8;
		const codes = [];
		for (let index = 0; index < CODES; index += 1) {
			codes.push(
				(
					await sandboxApi(sandbox, 'POST', '/qr-codes', {
						name: `Queue milestone ${index}`,
						type: 'url',
						payload: { url: `https://example.com/milestone/${index}` },
					})
				).data,
			);
		}
		// One code is past the first milestone before activation: the baseline keeps it from firing.
		for (let index = 0; index < 3; index += 1) await scan(codes[0]);
		const created = await cluster.createWorkflow(
			triggerWorkflow(['scan.created'], { scanMilestones: '3, 5' }),
		);
		const webhookUrl = cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']);
		await cluster.activate(created.id);
		try {
			const [endpoint] = await endpointsAt(webhookUrl, 1);
			const storedClaims = async () =>
				(await cluster.workflow(created.id)).staticData?.['node:Dynamic QR Trigger']?.scanMilestones
					?.claims ?? '';
			// (Codes of earlier tests that passed a milestone are in the baseline too.)
			const ours = (claims) =>
				claims.split(';').filter((claim) => codes.some((code) => claim.startsWith(`${code.id},`)));
			expect(ours(await storedClaims())).toEqual([`${codes[0].id},3`]);
			const milestonesStored = (milestone) =>
				waitFor(
					async () => {
						const claims = (await storedClaims()).split(';');
						// The first code claimed 5 in the second round.
						const wanted = [
							`${codes[0].id},5`,
							...codes.slice(1).map((code) => `${code.id},${milestone}`),
						];
						return wanted.every((claim) => claims.includes(claim)) ? claims : null;
					},
					{ what: `every code's claim of ${milestone} stored`, timeoutMs: 30000, intervalMs: 250 },
				);
			// Rounds of one scan of every code at once: the round-robin balancer spreads them over
			// both processors. Each round is delivered before the next.
			let scanned = 0;
			const round = async () => {
				await Promise.all(codes.map((code) => scan(code)));
				scanned += CODES;
				const eventIds = (
					await sandbox.control('GET', `/deliveries?endpoint_id=${endpoint.id}`)
				).data.map((delivery) => delivery.event_id);
				expect(eventIds).toHaveLength(scanned);
				return await deliveredAll(endpoint.id, eventIds);
			};
			await round();
			await round(); // the first code: 5, its second milestone
			const third = await round(); // every other code: 3
			const firsts = third.map((delivery) => cluster.balancer.firstProcessorOf(delivery.event_id));
			expect(new Set(firsts)).toEqual(new Set([0, 1]));
			await settledExecutions(created.id, CODES, 'the first milestones');
			// Claims made at once on two processors, saved whole over each other, are all stored
			// once each processor has sent itself a resync: a processor that never saw a claim then
			// finds it in the database.
			await milestonesStored(3);
			// Both processors restart: nothing of the claims stays in their memory.
			for (let index = 0; index < PROCESSORS; index += 1) {
				await cluster.restartWebhookProcessor(index);
			}
			await round(); // 4: nothing
			await round(); // 5: the second milestone
			await milestonesStored(5);
			await round(); // 6: nothing

			const executions = await quietExecutions(created.id);
			const reached = [];
			for (const summary of executions) {
				const execution = await cluster.execution(summary.id);
				expect(execution.status).toBe('success');
				const [item] = execution.items('Dynamic QR Trigger');
				reached.push(`${item.json.data.qr_code.id}:${item.json.milestone}`);
			}
			const expected = [
				`${codes[0].id}:5`,
				...codes.slice(1).flatMap((code) => [`${code.id}:3`, `${code.id}:5`]),
			];
			expect(reached.sort()).toEqual(expected.sort());
		} finally {
			await cluster.deactivate(created.id);
		}
	});

	test('re-activations racing deliveries never leave an old signing secret stored; no delivery starts twice', async () => {
		const created = await cluster.createWorkflow(triggerWorkflow(['scan.created']));
		const webhookPath = new URL(cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']))
			.pathname;
		const code = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: 'racing',
				type: 'url',
				payload: { url: 'https://example.com/racing' },
			})
		).data;
		await cluster.activate(created.id);
		let racing = true;
		const scans = (async () => {
			while (racing) {
				await scan(code);
				await new Promise((resolve) => setTimeout(resolve, 50));
			}
		})();
		try {
			for (let cycle = 0; cycle < 3; cycle += 1) {
				await cluster.deactivate(created.id);
				await cluster.activate(created.id);
			}
		} finally {
			racing = false;
			await scans;
		}
		try {
			// Deliveries that reached n8n while it was active ended in exactly one execution each.
			const answered = cluster.balancer
				.webhookRecords()
				.filter((record) => record.path === webhookPath && record.status === 200);
			const racingExecutions = await settledExecutions(
				created.id,
				new Set(answered.map((record) => record.webhookId)).size,
				'the executions of the racing scans',
			);
			const counts = countByWebhookId(await triggerEvents(racingExecutions));
			expect([...counts.values()].filter((count) => count > 1)).toEqual([]);

			// The stored secret is the live endpoint's: fresh scans are all verified and started.
			const mark = cluster.balancer.records.length;
			for (let index = 0; index < 5; index += 1) await scan(code);
			await settledExecutions(
				created.id,
				racingExecutions.length + 5,
				'the executions of 5 fresh scans',
			);
			// Executions can be counted before the last answers are (a retry of a delivery refused
			// while a new secret was being stored may start one too): the answers are waited for.
			const fresh = await waitFor(
				() => cluster.balancer.records.slice(mark).filter((record) => record.path === webhookPath),
				{
					until: (records) => records.every((record) => record.status !== undefined),
					resolveOnTimeout: true,
					timeoutMs: 30000,
				},
			);
			expect(fresh.length).toBeGreaterThanOrEqual(5);
			expect(fresh.filter((record) => record.status !== 200)).toEqual([]);
		} finally {
			await cluster.deactivate(created.id);
		}
	});

	// Last: it moves every process's clock and the service's 25 hours ahead, for the rest of the file.
	test('after a silence longer than the service retries, two leads reach both processors at once: each draws a catch-up ticket, one catch-up runs, and the lead the service dropped starts one execution', async () => {
		const created = await cluster.createWorkflow(triggerWorkflow(['lead.created']));
		const url = cluster.webhookUrl(created.webhookIds['Dynamic QR Trigger']);
		const path = new URL(url).pathname;
		const ours = () => cluster.balancer.webhookRecords().filter((record) => record.path === path);
		await cluster.activate(created.id);
		await endpointsAt(url, 1);
		try {
			const before = (await sandbox.control('POST', '/leads', { name: 'Before the silence' })).data;
			await settledExecutions(created.id, 1, 'the execution of the lead before the silence');
			// n8n unreachable through the service's whole retry schedule: that lead is dropped.
			cluster.balancer.refuse = 503;
			const dropped = (await sandbox.control('POST', '/leads', { name: 'Dropped' })).data;
			await passTime(sandbox, 9 * 60 * 60);
			cluster.balancer.refuse = undefined;
			await passTime(sandbox, 16 * 60 * 60);
			await waitFor(
				async () => {
					for (const port of cluster.webhookPorts) {
						const answer = await fetch(`http://127.0.0.1:${port}/healthz`);
						if (Date.parse(answer.headers.get('date')) < Date.now() - 5000) return null;
					}
					return true;
				},
				{ what: "the webhook processors' clocks 25 hours on" },
			);

			// The next two leads, one to each processor, at once: both see the silence.
			let routed = 0;
			cluster.balancer.route = (req) =>
				req.url.startsWith(path) && routed < PROCESSORS ? routed++ : undefined;
			const mark = ours().length;
			const monday = await Promise.all(
				['Monday A', 'Monday B'].map(
					async (name) => (await sandbox.control('POST', '/leads', { name })).data,
				),
			);
			// Each processor sends its catch-up once the tickets' saves have settled (30 s).
			const catchUps = await waitFor(
				() => {
					const sent = ours()
						.slice(mark)
						.filter((record) => String(record.webhookId).startsWith('catchup_'));
					return sent.length === PROCESSORS && sent.every((record) => record.status) ? sent : null;
				},
				{ what: 'a catch-up from each processor, answered', timeoutMs: 120000 },
			);
			cluster.balancer.route = undefined;
			expect(catchUps.map((record) => record.status)).toEqual([200, 200]);
			expect(
				catchUps.filter((record) => record.answer.includes('Workflow was started')),
			).toHaveLength(1);
			expect(
				catchUps.filter((record) => record.answer.includes('another catch-up runs')),
			).toHaveLength(1);

			const executions = await quietExecutions(created.id);
			const items = [];
			for (const summary of executions)
				items.push(...(await cluster.execution(summary.id)).items('Dynamic QR Trigger'));
			const leads = items.map((item) => [item.json.data.lead.id, item.json.caught_up ?? false]);
			expect(executions).toHaveLength(4);
			expect(leads.filter(([, caught]) => caught)).toEqual([[dropped.id, true]]);
			expect(
				leads
					.filter(([, caught]) => !caught)
					.map(([id]) => id)
					.sort(),
			).toEqual([before, ...monday].map((lead) => lead.id).sort());
		} finally {
			cluster.balancer.route = undefined;
			cluster.balancer.refuse = undefined;
			await cluster.deactivate(created.id);
		}
	});
});
