'use strict';
/**
 * The polling trigger with n8n's durable poll cursors on (n8n 2.x): N8N_SCHEDULER_ENABLED,
 * N8N_SCHEDULER_POLL_TRIGGERS_ENABLED and N8N_POLLER_DURABLE_CURSORS_ENABLED (plus the workflow
 * publication service, on by default in 2.41). n8n then keeps a polling trigger's static data in
 * its `poller_state` table, commits it with the execution a poll starts (or alone after a poll
 * that starts none), drops what a failed poll wrote, and gives each poll a budget
 * (getPollBudgetMs: 36 s at the default N8N_SCHEDULER_POLL_TIMEOUT of 45 s, less n8n's margin).
 *
 * Three active workflows, New QR Code, Scan Milestone (every code, milestones 2 and 4) and Quiet
 * Code (one code, 2 days), polled every minute by n8n's scheduler: a poll that finds new records
 * starts an execution with exactly those; n8n is restarted on the same database; then each poll's
 * read of the list fails on its second page (503 with a Retry-After longer than the budget): for
 * New QR Code a failed execution with the budget error and the cursor row unchanged, for Scan
 * Milestone a sweep that stops before that page (no failure) and goes on there at the next poll;
 * every record is emitted once; the quiet code, reported before the restart, is not reported again. The
 * cursors are read from n8n's database (dev/n8n/poller-state.js). About 4 minutes: n8n polls at
 * most once a minute, and each step waits for the next poll.
 *
 * Run with `npm run test:e2e`; n8n 2.x only (1.x has no durable cursors).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { startN8n, N8N_VERSIONS } = require('../../dev/n8n/instance');
const { pollerState } = require('../../dev/n8n/poller-state');
const { createN8nApiCredential } = require('../../dev/n8n/sandbox-credentials');
const { freePort } = require('../../dev/ports');
const { startSandbox } = require('../../dev/sandbox');
const { CREDENTIAL_NAME, loadExamples } = require('../../dev/examples');
const { startRecorder } = require('../../dev/http-recorder');
const { waitFor } = require('../../dev/wait-for');
const { endpointsAt, pollingTriggerWorkflow, sandboxApi, triggerWorkflow } = require('./helpers');

const DURABLE_CURSORS = {
	N8N_SCHEDULER_ENABLED: 'true',
	N8N_SCHEDULER_POLL_TRIGGERS_ENABLED: 'true',
	N8N_POLLER_DURABLE_CURSORS_ENABLED: 'true',
};
/** n8n's poll budget at the default poll timeout: min(45 s, lease 60 s) less 20 % (at least 5 s). */
const BUDGET_SECONDS = 36;
/** Codes made while n8n is down: the list then has three pages. */
const BATCH = 201;
const version = N8N_VERSIONS.current;

describe(`polling trigger with durable poll cursors in n8n ${version}`, () => {
	const log = (line) => process.stderr.write(`[durable ${version}] ${line}\n`);
	let sandbox;
	let n8n;
	let userFolder;
	let port;
	const start = async () => {
		n8n = await startN8n({ version, log, userFolder, port, env: DURABLE_CURSORS });
	};
	// Set up by the first test, used by the next ones.
	const flows = {};
	// The outage (see "When n8n was away" in the README): a Dynamic QR Trigger on leads and new
	// codes, New Lead on all cards, and the example repair-stopped-trigger.
	const outage = { leads: [] };
	let chat;
	let target;
	let quiet;
	const newCodes = { beforeRestart: [], afterRestart: [] };

	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-durable-${version}-`));
		port = await freePort();
		await start();
		await n8n.createCredential({
			name: CREDENTIAL_NAME,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		// What the example's n8n node signs in with: an API key of the owner (Settings → n8n API).
		await createN8nApiCredential(n8n);
		chat = await startRecorder();
	}, 300000);

	afterAll(async () => {
		await n8n?.stop();
		await chat?.close();
		if (process.env.E2E_KEEP !== '1') fs.rmSync(userFolder, { recursive: true, force: true });
		await sandbox?.close();
	}, 60000);

	const createCode = async (name) =>
		(
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name,
				type: 'url',
				payload: { url: `https://example.com/${encodeURIComponent(name)}` },
			})
		).data;
	const scan = (code) => sandbox.control('POST', '/scans', { qr_code_id: code.id });
	/** The node's static data as n8n last committed it to poller_state. */
	const storedCursor = (workflowId) => {
		const rows = pollerState(n8n, workflowId);
		expect(rows).toHaveLength(1);
		return rows[0];
	};
	const finished = (list) =>
		list.every((run) => !['new', 'running', 'waiting'].includes(run.status));
	/** The workflow's executions once `count` of them have `status` and all have finished. */
	const executionsOnce = (workflowId, status, count, what) =>
		waitFor(
			async () => {
				const list = await n8n.executions(workflowId);
				const matching = list.filter((run) => run.status === status);
				return finished(list) && matching.length >= count ? list : null;
			},
			{ what, timeoutMs: 150000, intervalMs: 1000 },
		);
	/** What each successful execution's trigger emitted, oldest execution first. */
	const emitted = async (list) => {
		const result = [];
		for (const summary of [...list].sort((a, b) => Number(a.id) - Number(b.id))) {
			if (summary.status !== 'success') continue;
			result.push((await n8n.execution(summary.id)).items('Received').map((item) => item.json));
		}
		return result;
	};

	test('activated: the first poll of the scheduler stores each cursor in poller_state (not in the workflow) and starts nothing', async () => {
		// Scanned while n8n is away; archived, so the Scan Milestone flow (codes not archived) and
		// the others (made a day before their activation, another name) leave it out.
		outage.poster = await createCode('Outage poster');
		await sandbox.control('PATCH', `/qr-codes/${outage.poster.id}`, {
			archived: true,
			created_at: new Date(Date.now() - 24 * 60 * 60 * 1000).toISOString(),
		});
		quiet = await createCode('Durable quiet');
		target = await createCode('Durable target');
		flows.codes = await n8n.createWorkflow(
			pollingTriggerWorkflow('Durable: new QR codes', { event: 'newQrCode' }),
		);
		flows.milestones = await n8n.createWorkflow(
			pollingTriggerWorkflow('Durable: scan milestones', {
				event: 'scanMilestone',
				milestones: '2, 4',
				// Every code; the filter only marks this workflow's reads in the sandbox's log.
				filters: { archived: false },
				// A tight plan: half of 4 a minute, 2 requests a poll (page 1 and one more).
				planRequestsPerMinute: 4,
			}),
		);
		flows.quiet = await n8n.createWorkflow(
			pollingTriggerWorkflow('Durable: quiet code', {
				event: 'quietCode',
				quietDays: 2,
				filters: { search: 'Durable quiet' },
			}),
		);
		await n8n.activate(flows.codes.id);
		await n8n.activate(flows.milestones.id);
		await n8n.activate(flows.quiet.id);

		outage.cards = [
			sandbox.cardId,
			(await sandbox.control('POST', '/cards', { name: 'Durable card 2' })).data.id,
			(await sandbox.control('POST', '/cards', { name: 'Durable card 3' })).data.id,
		];
		outage.trigger = await n8n.createWorkflow(triggerWorkflow(['lead.created', 'scan.created']), {
			name: 'Durable: webhook trigger',
		});
		outage.leads = await n8n.createWorkflow(
			pollingTriggerWorkflow('Durable: leads of all cards', { event: 'newLead', cards: 'all' }),
		);
		outage.repair = await n8n.createWorkflow(loadExamples()['repair-stopped-trigger.json'], {
			patch: (nodes) => {
				nodes['When a webhook endpoint stops'].parameters.pollTimes = {
					item: [{ mode: 'everyMinute' }],
				};
				nodes['Tell the team'].parameters.url = `${chat.url}/chat`;
			},
		});
		for (const flow of [outage.trigger, outage.leads, outage.repair]) await n8n.activate(flow.id);
		outage.url = n8n.webhookUrl(outage.trigger.webhookIds['Dynamic QR Trigger']);
		[outage.endpoint] = await endpointsAt(sandbox, outage.url, 1);
		// n8n does not keep what the poll at activation wrote; the scheduler's first poll does.
		const codes = await waitFor(() => storedCursor(flows.codes.id).cursor.cursor, {
			what: 'the New QR Code cursor in poller_state',
			timeoutMs: 150000,
			intervalMs: 1000,
		});
		expect(codes).toEqual({
			key: 'newQrCode',
			newestMs: Date.parse(target.created_at),
			recent: expect.arrayContaining([
				[quiet.id, Date.parse(quiet.created_at)],
				[target.id, Date.parse(target.created_at)],
			]),
		});
		const milestones = await waitFor(() => storedCursor(flows.milestones.id).cursor.scanCursor, {
			what: 'the Scan Milestone cursor in poller_state',
			timeoutMs: 150000,
			intervalMs: 1000,
		});
		expect(milestones.codes).toBe(`${quiet.id},0;${target.id},0`);
		// Created just now: not quiet.
		const quietCursor = await waitFor(() => storedCursor(flows.quiet.id).cursor.scanCursor, {
			what: 'the Quiet Code cursor in poller_state',
			timeoutMs: 150000,
			intervalMs: 1000,
		});
		expect(quietCursor.codes).toBe(`${quiet.id},0`);
		for (const flow of Object.values(flows)) {
			expect((await n8n.workflow(flow.id)).staticData ?? {}).toEqual({});
			expect(await n8n.executions(flow.id)).toEqual([]);
		}
	}, 360000);

	test('polls that find new records start executions with exactly those, each once; the cursor row moves with them', async () => {
		newCodes.beforeRestart = [await createCode('Durable new 1'), await createCode('Durable new 2')];
		await scan(target);
		await scan(target); // 2 scans: milestone 2
		// Created 3 days ago as far as the service says, never scanned: quiet for 2 days now.
		const threeDaysAgo = new Date(Date.now() - 3 * 24 * 60 * 60 * 1000).toISOString();
		await sandbox.control('PATCH', `/qr-codes/${quiet.id}`, { created_at: threeDaysAgo });

		// One execution each, unless a poll fell between the two creates (then two).
		const ids = newCodes.beforeRestart.map((code) => code.id);
		const codeItems = await waitFor(
			async () => {
				const items = (await emitted(await n8n.executions(flows.codes.id))).flat();
				return ids.every((id) => items.some((item) => item.id === id)) ? items : null;
			},
			{ what: 'the two new codes', timeoutMs: 150000, intervalMs: 1000 },
		);
		expect(codeItems.map((item) => item.id)).toEqual(ids);
		const [milestoneRun] = await executionsOnce(flows.milestones.id, 'success', 1, 'milestone 2');
		expect(await emitted([milestoneRun])).toEqual([
			[expect.objectContaining({ id: target.id, milestone: 2, scans: 2 })],
		]);
		// Committed with the execution, before n8n ran it: the poll wrote it before returning.
		const codes = storedCursor(flows.codes.id);
		expect(codes.cursor.cursor.recent.map(([id]) => id).sort()).toEqual(
			[quiet.id, target.id, ...ids].sort(),
		);
		expect(storedCursor(flows.milestones.id).cursor.scanCursor.codes.split(';')).toContain(
			`${target.id},2`,
		);
		const [quietRun] = await executionsOnce(flows.quiet.id, 'success', 1, 'the quiet code');
		expect(await emitted([quietRun])).toEqual([
			[expect.objectContaining({ id: quiet.id, quiet_days: 3, quiet_for_days: 2, scans: 0 })],
		]);
		// Reported: the flag is in the committed cursor.
		expect(storedCursor(flows.quiet.id).cursor.scanCursor.codes).toBe(`${quiet.id},0,1`);
	}, 300000);

	test('after a restart, a read of the list that fails on page 2: New QR Code fails cleanly and moves no cursor, Scan Milestone stops its sweep there without failing; every record once', async () => {
		await n8n.stop();
		const before = { codes: storedCursor(flows.codes.id) };
		// While n8n is down: 201 new codes (the list now has three pages of 100; the target is on
		// page 3), two more scans (milestone 4), and page 2 of the next two reads of the list
		// answers 503 with a Retry-After longer than a poll's budget.
		const readsFrom = (await sandbox.control('GET', '/requests')).data.length;
		for (let i = 0; i < BATCH; i++) {
			newCodes.afterRestart.push(await createCode(`Durable batch ${i}`));
		}
		await scan(target);
		await scan(target);
		// 25 scans and six leads on three cards; then the sandbox's clock through the service's
		// whole retry schedule: every delivery to the stopped n8n fails, and after 20 events in a
		// row the service pauses the trigger's endpoint and e-mails the owner.
		for (let i = 0; i < 25; i++) await scan(outage.poster);
		outage.sharedLeads = [];
		for (const [index, cardId] of [0, 1, 2, 0, 1, 2].map((at) => [at, outage.cards[at]])) {
			outage.sharedLeads.push(
				(await sandbox.control('POST', '/leads', { card_id: cardId, name: `Away ${index}` })).data,
			);
		}
		await sandbox.control('POST', '/clock/advance', { seconds: 9 * 60 * 60 });
		expect((await sandbox.control('GET', '/webhooks')).data).toContainEqual(
			expect.objectContaining({ id: outage.endpoint.id, status: 'paused' }),
		);
		expect((await sandbox.control('GET', '/outbox')).data).toContainEqual(
			expect.objectContaining({ endpoint_id: outage.endpoint.id, to: 'owner@sandbox.test' }),
		);
		await sandbox.control('POST', '/faults', {
			listPageFailures: 2,
			retryAfterSeconds: BUDGET_SECONDS + 4,
		});
		await start();
		const restartedAt = Date.now();
		outage.restartedAt = restartedAt;

		const list = await executionsOnce(flows.codes.id, 'error', 1, 'the failed poll of the codes');
		const failed = await n8n.execution(list.find((run) => run.status === 'error').id);
		expect(failed.error).toMatchObject({
			message: `The poll could not finish within the ${BUDGET_SECONDS} seconds n8n allows it`,
			description: expect.stringMatching(
				new RegExp(
					`^The service asked to wait ${BUDGET_SECONDS + 4} seconds \\(503\\) before GET /qr-codes, longer than the time left\\. Nothing was emitted`,
				),
			),
		});
		// Both page-2 failures were met: one by the codes' poll, one by the milestones' sweep.
		await waitFor(async () => (await sandbox.control('GET', '/faults')).listPageFailures === 0, {
			what: 'both page-2 failures met',
			timeoutMs: 150000,
			intervalMs: 1000,
		});
		// The failed poll left its cursor as it was.
		expect(storedCursor(flows.codes.id).cursor).toEqual(before.codes.cursor);

		const codeRuns = await waitFor(
			async () => {
				const list = await n8n.executions(flows.codes.id);
				const items = (await emitted(list)).flat();
				return items.length >= newCodes.beforeRestart.length + BATCH ? list : null;
			},
			{ what: 'the batch of codes', timeoutMs: 150000, intervalMs: 1000 },
		);
		const milestoneRuns = await executionsOnce(flows.milestones.id, 'success', 2, 'milestone 4');
		// Every record once, across the restart and the failed poll, oldest first; the batch made
		// while n8n was down in one execution, after the failed poll.
		const codeItems = await emitted(codeRuns);
		expect(codeItems.flat().map((item) => item.id)).toEqual(
			[...newCodes.beforeRestart, ...newCodes.afterRestart].map((code) => code.id),
		);
		expect(codeItems.at(-1).map((item) => item.id)).toEqual(
			newCodes.afterRestart.map((code) => code.id),
		);
		const byId = (list) => [...list].sort((a, b) => Number(a.id) - Number(b.id));
		expect(
			byId(codeRuns)
				.map((run) => run.status)
				.slice(-2),
		).toEqual(['error', 'success']);
		expect(codeRuns.filter((run) => run.status === 'error')).toHaveLength(1);
		expect(
			(await emitted(milestoneRuns)).map((items) =>
				items.map((item) => [item.id, item.milestone, item.scans]),
			),
		).toEqual([[[target.id, 2, 2]], [[target.id, 4, 4]]]);
		// The sweep that met the failure stopped before page 2, started nothing, and failed nothing.
		expect(byId(milestoneRuns).map((run) => run.status)).toEqual(['success', 'success']);
		// Within its share: each poll of the milestones read the list at most twice, so the
		// target, on page 3, was reached by the third poll after the restart (page 2 failed, page
		// 2, page 3).
		const reads = (await sandbox.control('GET', '/requests')).data
			.slice(readsFrom)
			.filter((request) => request.path === '/qr-codes' && request.query.archived === 'false');
		const polls = [];
		for (const read of reads) {
			const at = Date.parse(read.at);
			const last = polls.at(-1);
			if (last && at - last.at < 20000) last.pages.push(read.query.page);
			else polls.push({ at, pages: [read.query.page] });
		}
		expect(polls.slice(0, 3).map((poll) => poll.pages)).toEqual([
			['1', '2'],
			['1', '2'],
			['1', '3'],
		]);
		expect(polls.every((poll) => poll.pages.length <= 2)).toBe(true);

		const codes = storedCursor(flows.codes.id);
		expect(codes.consecutiveErrors).toBe(0);
		expect(codes.cursor.cursor.newestMs).toBe(Date.parse(newCodes.afterRestart.at(-1).created_at));
		expect(codes.cursor.cursor.recent.map(([id]) => id)).toEqual(
			expect.arrayContaining(newCodes.afterRestart.map((code) => code.id)),
		);
		expect(storedCursor(flows.milestones.id).cursor.scanCursor.codes.split(';')).toContain(
			`${target.id},4`,
		);
		// The quiet code, still quiet, was reported once: polls after the restart (its cursor row
		// was written by one) start nothing.
		await waitFor(() => storedCursor(flows.quiet.id).cursor.scanCursor.polledMs > restartedAt, {
			what: 'a poll of the quiet code after the restart',
			timeoutMs: 150000,
			intervalMs: 1000,
		});
		expect((await n8n.executions(flows.quiet.id)).map((run) => run.status)).toEqual(['success']);
		for (const flow of Object.values(flows)) await n8n.deactivate(flow.id);
	}, 420000);

	test('the trigger whose endpoint the service paused during the outage is reported within a poll, re-activated by the example, catches up what it missed and receives again; New Lead on all cards emitted each lead once', async () => {
		const [told] = await chat.waitFor(1);
		expect(told.body.text).toBe(
			'The Dynamic QR Trigger of "Durable: webhook trigger" stopped receiving (paused). The workflow was published again and has a new webhook endpoint.',
		);
		const [replaced] = await endpointsAt(sandbox, outage.url, 1);
		expect(replaced).toMatchObject({ status: 'active' });
		expect(replaced.id).not.toBe(outage.endpoint.id);
		const [repairRun] = await executionsOnce(outage.repair.id, 'success', 1, 'the repair');
		expect((await n8n.executions(outage.repair.id)).map((run) => run.status)).toEqual(['success']);
		// Told by the first poll after n8n started (polled every minute; a minute and n8n's start).
		expect(Date.parse(repairRun.startedAt) - outage.restartedAt).toBeLessThan(90_000);

		// Caught up: the six leads the service dropped while n8n was away, each once, oldest first,
		// in one run of the trigger's workflow (scans cannot be: the API keeps counts).
		const caught = await waitFor(
			async () => {
				const list = await n8n.executions(outage.trigger.id);
				const items = finished(list) ? (await emitted(list)).flat() : [];
				return items.some((item) => item.caught_up) ? items.filter((item) => item.caught_up) : null;
			},
			{ what: 'the catch-up run', timeoutMs: 60000, intervalMs: 1000 },
		);
		expect(caught.map((item) => item.id)).toEqual(
			outage.sharedLeads.map((each) => `caught_up:lead.created:${each.id}`),
		);

		// Receiving again: a new lead and a new scan start the trigger's workflow, once each.
		const before = (await n8n.executions(outage.trigger.id)).length;
		const lead = (await sandbox.control('POST', '/leads', { name: 'After the repair' })).data;
		await scan(outage.poster);
		const runs = await waitFor(
			async () => {
				const list = await n8n.executions(outage.trigger.id);
				return list.length >= before + 2 && finished(list) ? list : null;
			},
			{ what: 'the lead and the scan after the repair', timeoutMs: 60000, intervalMs: 500 },
		);
		const newest = [...runs].sort((a, b) => Number(a.id) - Number(b.id)).slice(before);
		expect((await emitted(newest)).map(([item]) => item.type).sort()).toEqual([
			'lead.created',
			'scan.created',
		]);
		const all = (await emitted(runs)).flat();
		for (const each of [...outage.sharedLeads, lead]) {
			expect(all.filter((item) => item.data?.lead?.id === each.id)).toHaveLength(1);
		}

		// The polling trigger on all cards: the six leads shared while n8n was down and the one
		// after, each once.
		const wanted = [...outage.sharedLeads, lead].map((each) => each.id);
		const items = await waitFor(
			async () => {
				const got = (await emitted(await n8n.executions(outage.leads.id))).flat();
				return wanted.every((id) => got.some((item) => item.id === id)) ? got : null;
			},
			{ what: 'the leads of all cards', timeoutMs: 150000, intervalMs: 1000 },
		);
		expect(items.map((item) => item.id).sort()).toEqual([...wanted].sort());
	}, 300000);

	test("an outage shorter than the retry schedule: the service's retries start the trigger's workflow once per event, nothing is caught up, the endpoint stays active", async () => {
		const runsBefore = (await n8n.executions(outage.trigger.id)).map((run) => run.id);
		const [endpoint] = await endpointsAt(sandbox, outage.url, 1);
		await n8n.stop();
		// Three leads and two scans while n8n is down; their first delivery and the retry after a
		// minute fail, the retry after five more minutes reaches the started n8n.
		const leads = [];
		for (const cardId of outage.cards)
			leads.push(
				(await sandbox.control('POST', '/leads', { card_id: cardId, name: 'Short' })).data,
			);
		await scan(outage.poster);
		await scan(outage.poster);
		await sandbox.control('POST', '/clock/advance', { seconds: 2 * 60 });
		await start();
		await sandbox.control('POST', '/clock/advance', { seconds: 5 * 60 });
		const runs = await waitFor(
			async () => {
				const list = await n8n.executions(outage.trigger.id);
				const fresh = list.filter((run) => !runsBefore.includes(run.id));
				return fresh.length >= 5 && finished(list) ? fresh : null;
			},
			{ what: 'the five retried deliveries', timeoutMs: 60000, intervalMs: 500 },
		);
		// Every retry was answered: later ones start nothing.
		await sandbox.control('POST', '/clock/advance', { seconds: 9 * 60 * 60 });
		const deliveries = (await sandbox.control('GET', `/deliveries?endpoint_id=${endpoint.id}`))
			.data;
		expect(deliveries.filter((each) => each.status !== 'succeeded')).toEqual([]);
		const items = (await emitted(runs)).flat();
		expect(items.filter((item) => item.caught_up)).toEqual([]);
		expect(items.filter((item) => item.type === 'scan.created')).toHaveLength(2);
		expect(
			items
				.filter((item) => item.type === 'lead.created')
				.map((item) => item.data.lead.id)
				.sort(),
		).toEqual(leads.map((lead) => lead.id).sort());
		expect(new Set(items.map((item) => item.webhook_id)).size).toBe(items.length);
		expect((await n8n.executions(outage.trigger.id)).length).toBe(runsBefore.length + runs.length);
		expect(runs).toHaveLength(5);
		const [still] = await endpointsAt(sandbox, outage.url, 1);
		expect(still).toMatchObject({ id: endpoint.id, status: 'active' });

		for (const flow of [outage.trigger, outage.leads, outage.repair]) await n8n.deactivate(flow.id);
	}, 300000);
});
