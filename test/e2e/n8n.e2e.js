'use strict';
/**
 * End-to-end: the packed package loaded into a real n8n (the current 2.x line and the last 1.x
 * line), driven only through n8n's own REST API and webhooks, against the sandbox. Every
 * assertion reads results back from n8n's executions (or from what n8n's workflows sent on).
 *
 * Run with `npm run test:e2e` (jest.e2e.config.js). Provisions n8n on first use (minutes).
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const { startN8n, N8N_VERSIONS, EXPECTED_NODE_TYPES } = require('../../dev/n8n/instance');
const { movableClock } = require('../../dev/n8n/movable-clock');
const { clusterStorage, psql } = require('../../dev/n8n/queue-storage');
const { readRecipe } = require('../../dev/n8n/event-claim-recipe');
const {
	node,
	connect,
	credentialRef,
	workflow,
	removeDuplicatesOnWebhookId,
	TYPES,
} = require('../../dev/n8n/workflow-builder');
const { useMovedTime, passTime, movedSeconds, movesWith } = require('../support/time');
const { startSandbox } = require('../../dev/sandbox');
const { loadExamples, CREDENTIAL_NAME } = require('../../dev/examples');
const { waitFor } = require('../../dev/wait-for');
const { startRecorder } = require('../../dev/http-recorder');
const { decodePng } = require('../../dev/qr-image');
const { ensurePrintTools, unzipped, readPdfCodes } = require('../../dev/print-files');
const {
	preRunChecks,
	ourNodeDescriptions,
	fromInput,
	fromAi,
} = require('../support/parameter-issues');
const { isRecorded, ENTRY_LENGTH } = require('../support/delivery-record');
const {
	TYPE_SAMPLES,
	bulkCreateWorkflow,
	updateRowsWorkflow,
	sandboxApi,
	createAllTypesWorkflow,
	MIXED_TYPE_CODES,
	MIXED_TYPE_ROWS,
	mixedTypesWorkflow,
	lifecycleWorkflow,
	getManyWorkflow,
	pollingTriggerWorkflow,
	triggerWorkflow,
	dashboardTriggerWorkflow,
	postForged,
	postForgedUntilSeen,
	endpointsAt: endpointsAtSandbox,
} = require('./helpers');

const REFUSED_KEY_MESSAGE =
	'The API key was refused: it is wrong, revoked, or its creator left the team. Create a new key in the developer settings of the dashboard.';
const examples = loadExamples();

// n8n's clock moves with this file's (the sandbox's) in the last test, as time does.
useMovedTime();

describe.each([
	['current', N8N_VERSIONS.current],
	['previous', N8N_VERSIONS.previous],
])('n8n %s (%s) with n8n-nodes-dynamic-qr', (_line, version) => {
	let n8n;
	let sandbox;
	let receiver;
	let credential;
	let clock;
	let stopMoving;
	const log = (line) => process.stderr.write(`[e2e ${version}] ${line}\n`);

	beforeAll(
		async () => {
			sandbox = await startSandbox({ port: 0 });
			await ensurePrintTools({ log });
			receiver = await startRecorder();
			clock = await movableClock({ seconds: movedSeconds(), log });
			stopMoving = movesWith(clock);
			n8n = await startN8n({ version, log, env: clock.env });
			credential = await n8n.createCredential({
				name: CREDENTIAL_NAME,
				type: 'dynamicQrApi',
				data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
			});
			// On a fresh machine this first provisions n8n (several minutes; .ci/run does it beforehand).
		},
		40 * 60 * 1000,
	);

	afterAll(async () => {
		// E2E_KEEP=1 keeps n8n's user folder (its log and database) to look into.
		await n8n?.stop({ keep: process.env.E2E_KEEP === '1' });
		stopMoving?.();
		clock?.remove();
		await receiver?.close();
		await sandbox?.close();
	}, 60000);

	/** `seconds` pass for the service and for n8n, which reads its moved clock within seconds. */
	const passTimeForN8n = async (seconds) => {
		await passTime(sandbox, seconds);
		await waitFor(
			async () => {
				const answer = await fetch(`http://127.0.0.1:${n8n.port}/healthz`);
				return Date.parse(answer.headers.get('date')) > Date.now() - 5000 || null;
			},
			{ what: `n8n's clock ${seconds / 3600} hours on` },
		);
	};
	/** Workflows started by the sandbox's webhook deliveries, not by a person. */
	const triggeredExecutions = async (workflowId) =>
		(await n8n.executions(workflowId)).filter((execution) => execution.mode !== 'manual');
	const endpointsAt = (url, count) => endpointsAtSandbox(sandbox, url, count);
	/** The triggered executions once there are at least `count` and all of them have finished. */
	const settledExecutions = (workflowId, count, what) =>
		waitFor(
			async () => {
				const list = await triggeredExecutions(workflowId);
				const finished = list.every(
					(execution) => !['new', 'running', 'waiting'].includes(execution.status),
				);
				return list.length >= count && finished ? list : null;
			},
			{ what },
		);

	test('n8n loads the packed package: the action node, both triggers and the AI tool variant', async () => {
		const types = await n8n.rest('GET', '/types/nodes.json');
		const names = types.map((type) => type.name);
		expect(names).toEqual(
			expect.arrayContaining([...EXPECTED_NODE_TYPES, 'n8n-nodes-dynamic-qr.dynamicQrTool']),
		);
		// The action node and its tool variant at both versions, version 2 for new nodes.
		for (const name of ['n8n-nodes-dynamic-qr.dynamicQr', 'n8n-nodes-dynamic-qr.dynamicQrTool']) {
			const versions = types
				.filter((type) => type.name === name)
				.flatMap((type) => [].concat(type.version));
			expect([name, versions.sort()]).toEqual([name, [1, 2]]);
		}
		const credentialTypes = await n8n.rest('GET', '/types/credentials.json');
		expect(credentialTypes.map((type) => type.name)).toEqual(
			expect.arrayContaining(['dynamicQrApi', 'dynamicQrSigningSecretApi']),
		);
	});

	test('this n8n’s own pre-run parameter check: no field, literal or as an expression ($json, $fromAI), stops a run of any node', () => {
		// The copy of n8n-workflow this n8n runs, not the package's dev dependency.
		const n8nWorkflow = require.resolve('n8n-workflow', {
			paths: [path.join(n8n.runtime.dir, 'node_modules', 'n8n')],
		});
		expect(n8nWorkflow.startsWith(n8n.runtime.dir)).toBe(true);
		const checks = preRunChecks(n8nWorkflow);
		const problems = [];
		let checked = 0;
		for (const [name, description] of Object.entries(ourNodeDescriptions())) {
			const all = checks.configurations(description);
			problems.push(...checks.literalProblems(description, all).map((line) => `${name} ${line}`));
			for (const makeExpression of [fromInput, fromAi]) {
				const result = checks.expressionProblems(description, makeExpression, all);
				checked += result.checked;
				problems.push(...result.problems.map((line) => `${name} ${line}`));
			}
		}
		log(`pre-run check: ${checked} fields given as expressions, ${problems.length} problems`);
		expect(checked).toBeGreaterThan(1000);
		expect(problems).toEqual([]);
	});

	test('the credential test passes for a good key and fails clearly for a bad one', async () => {
		const good = await n8n.testCredential({
			id: credential.id,
			name: CREDENTIAL_NAME,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		expect(good).toEqual({ status: 'OK', message: 'Connection successful!' });

		const bad = await n8n.testCredential({
			name: 'Revoked key',
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.revoked, baseUrl: sandbox.baseUrl },
		});
		expect(bad.status).toBe('Error');
		// n8n 2.x shows the credential's own rule for a 401; n8n 1.x answers a 401 with its
		// generic message before the credential's rules are consulted (n8n's behaviour).
		expect(bad.message).toBe(
			n8n.major >= 2 ? REFUSED_KEY_MESSAGE : 'Authorization failed - please check your credentials',
		);
		expect(bad.message).not.toContain(sandbox.keys.revoked);
	});

	test('create codes of all 14 types, then get → update → pause → resume → download PNG/SVG/PDF/EPS → scan statistics → delete', async () => {
		// Every type the node offers is created once.
		const types = await n8n.rest('GET', '/types/nodes.json');
		const action = types.find((type) => type.name === 'n8n-nodes-dynamic-qr.dynamicQr');
		const typeProperty = action.properties.find(
			(property) =>
				property.name === 'type' && property.displayOptions?.show?.operation?.includes('create'),
		);
		const offered = typeProperty.options.map((option) => option.value).sort();
		expect(offered).toHaveLength(14);
		expect(Object.keys(TYPE_SAMPLES).sort()).toEqual(offered);

		const prefix = `E2E ${version}`;
		const created = await n8n.createWorkflow(createAllTypesWorkflow(prefix));
		const createRun = await n8n.runWorkflow(created.id);
		expect(createRun.error).toBeNull();
		expect(createRun.status).toBe('success');
		const codes = {};
		for (const [type, sample] of Object.entries(TYPE_SAMPLES)) {
			const items = createRun.items(`Create ${type}`);
			expect(items).toHaveLength(1);
			const code = items[0].json;
			expect(code).toMatchObject({
				object: 'qr_code',
				type,
				name: `${prefix} ${type}`,
				paused: false,
				folder: 'E2E',
			});
			expect(code.tags).toEqual(['e2e', 'all-types']);
			expect(code.payload).toMatchObject(sample.fields);
			if (sample.links) expect(code.payload.links).toEqual(sample.links);
			if (sample.destination) expect(code.destination).toBe(sample.destination);
			expect(code.id).toMatch(/^[A-Za-z0-9]{12}$/);
			codes[type] = code;
		}
		const ids = Object.values(codes).map((code) => code.id);

		// Scans happen between creation and the statistics.
		for (const [index, id] of ids.entries()) {
			for (let scan = 0; scan <= index % 3; scan += 1) {
				await sandbox.control('POST', '/scans', {
					qr_code_id: id,
					country: 'DE',
					city: 'Berlin',
					device: 'mobile',
				});
			}
		}

		const lifecycle = await n8n.createWorkflow(lifecycleWorkflow(ids));
		const run = await n8n.runWorkflow(lifecycle.id);
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');

		const got = run.items('Get').map((item) => item.json);
		expect(got.map((code) => code.id)).toEqual(ids);
		got.forEach((code, index) =>
			expect(code).toMatchObject({
				name: Object.values(codes)[index].name,
				payload: Object.values(codes)[index].payload,
			}),
		);

		const updated = run.items('Update').map((item) => item.json);
		expect(updated.map((code) => code.name)).toEqual(got.map((code) => `${code.name} (updated)`));
		updated.forEach((code, index) => expect(code.payload).toEqual(got[index].payload));

		expect(run.items('Pause').map((item) => item.json.paused)).toEqual(ids.map(() => true));
		expect(run.items('Resume').map((item) => item.json.paused)).toEqual(ids.map(() => false));

		const formats = {
			PNG: { mimeType: 'image/png', magic: (buffer) => buffer.subarray(1, 4).toString() === 'PNG' },
			SVG: {
				mimeType: 'image/svg+xml',
				magic: (buffer) => /<svg[\s>]/.test(buffer.toString('utf8')),
			},
			PDF: {
				mimeType: 'application/pdf',
				magic: (buffer) => buffer.subarray(0, 5).toString() === '%PDF-',
			},
			EPS: {
				mimeType: 'application/postscript',
				magic: (buffer) => buffer.subarray(0, 11).toString() === '%!PS-Adobe-',
			},
		};
		for (const [label, expected] of Object.entries(formats)) {
			const items = run.items(`Download ${label}`);
			expect(items).toHaveLength(ids.length);
			for (const [index, item] of items.entries()) {
				const code = codes[Object.keys(codes)[index]];
				expect(item.json).toMatchObject({
					id: code.id,
					short_url: code.short_url,
					format: label.toLowerCase(),
				});
				expect(item.binary.data).toMatchObject({
					mimeType: expected.mimeType,
					fileName: `qr-${code.id}.${label.toLowerCase()}`,
				});
				const bytes = await n8n.binary(item.binary.data);
				expect(expected.magic(bytes)).toBe(true);
				if (label === 'PNG') {
					const decoded = decodePng(bytes);
					expect(decoded.width).toBe(400);
					expect(decoded.text).toBe(code.short_url);
				}
			}
		}

		const statistics = run.items('Scans').map((item) => item.json);
		statistics.forEach((stat, index) => {
			const scans = (index % 3) + 1;
			expect(stat.qr_code_id).toBe(ids[index]);
			expect(stat.total).toBe(scans);
			expect(stat.breakdowns.country).toEqual([{ value: 'DE', scans }]);
			expect(stat.days.reduce((sum, day) => sum + day.scans, 0)).toBe(scans);
		});

		expect(run.items('Delete').map((item) => item.json)).toEqual(
			ids.map(() => ({ deleted: true })),
		);
		const stored = (await sandbox.control('GET', '/qr-codes')).data;
		for (const id of ids) expect(stored.find((code) => code.id === id).deleted).toBe(true);
	});

	test('codes of mixed types from the rows: fields mapped by name, and per-type fields with a Type expression', async () => {
		const imported = await n8n.createWorkflow(mixedTypesWorkflow('e2e-mixed', MIXED_TYPE_ROWS));
		const run = await n8n.runWorkflow(imported.id);
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');
		const byName = run.items('Mixed fields').map((item) => item.json);
		expect(byName.map((code) => [code.type, code.payload])).toEqual(MIXED_TYPE_CODES);
		const collected = run.items('Payload Fields (v2)').map((item) => item.json);
		expect(collected.map((code) => [code.type, code.payload])).toEqual(MIXED_TYPE_CODES);
		const perType = run.items('Per-type fields').map((item) => item.json);
		expect(perType.slice(0, 2).map((code) => code.type)).toEqual(['url', 'phone']);
		expect(perType[2].error).toBe(
			'Missing "Email" (payload.email) in item 2: it is required for type Email',
		);
		expect(perType[2].description).toMatch(/"Fields for Mixed Types"/);
	});

	test('30 rows updating one code, requests delayed at random: the code ends as the last row says', async () => {
		const { data } = await sandboxApi(sandbox, 'POST', '/qr-codes', {
			name: `Order ${version}`,
			type: 'email',
			payload: { email: 'a@example.com' },
		});
		const rows = Array.from({ length: 30 }, (_, index) => ({
			id: data.id,
			name: `n${index}`,
			subject: `s${index}`,
			design: JSON.stringify({ foreground_color: `#0000${String(index).padStart(2, '0')}` }),
		}));
		const created = await n8n.createWorkflow(updateRowsWorkflow(`E2E: order ${version}`, rows));
		await sandbox.control('POST', '/faults', { latencyJitterMs: 60 });
		try {
			for (let round = 0; round < 2; round++) {
				const run = await n8n.runWorkflow(created.id);
				expect(run.error).toBeNull();
				expect(run.items('Update QR code').map((item) => item.json.name)).toEqual(
					rows.map((row) => row.name),
				);
				const code = (await sandbox.control('GET', '/qr-codes')).data.find(
					(each) => each.id === data.id,
				);
				expect([code.name, code.payload, code.design.foreground_color]).toEqual([
					'n29',
					{ email: 'a@example.com', subject: 's29' },
					'#000029',
				]);
			}
		} finally {
			await sandbox.control('POST', '/faults', { latencyJitterMs: 0 });
		}
	});

	test('Get Many with Return All reads every page', async () => {
		const search = `Paging ${version}`;
		const made = [];
		for (let index = 0; index < 230; index += 1) {
			const answer = await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: `${search} ${String(index).padStart(3, '0')}`,
				type: 'url',
				payload: { url: `https://example.com/page/${index}` },
			});
			made.push(answer.data.id);
		}
		const requestsBefore = (await sandbox.control('GET', '/requests')).data.length;

		const created = await n8n.createWorkflow(getManyWorkflow(search));
		const run = await n8n.runWorkflow(created.id);
		expect(run.error).toBeNull();
		const items = run.items('Get Many').map((item) => item.json);
		expect(items).toHaveLength(230);
		expect(new Set(items.map((item) => item.id))).toEqual(new Set(made));
		expect(Object.keys(items[0]).sort()).toEqual(
			[
				'archived',
				'destination',
				'id',
				'name',
				'paused',
				'scans',
				'short_url',
				'status',
				'type',
				'updated_at',
			].sort(),
		);

		const pages = (await sandbox.control('GET', '/requests')).data
			.slice(requestsBefore)
			.filter((request) => request.method === 'GET' && request.path === '/qr-codes');
		// Page 1 tells there are 3; pages 2 and 3 are read at once; page 1 again confirms.
		const numbers = pages.map((request) => Number(request.query.page));
		expect([numbers[0], numbers.at(-1)]).toEqual([1, 1]);
		expect(numbers.slice(1, -1).sort()).toEqual([2, 3]);
		expect(pages.every((request) => request.status === 200)).toBe(true);
	});

	test('polling trigger on Scan Milestone: one execution when the code passes the milestone, none on the next poll', async () => {
		const POLLING = 'Dynamic QR Polling Trigger';
		const name = `Milestone ${crypto.randomUUID().slice(0, 8)}`;
		const code = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name,
				type: 'url',
				payload: { url: 'https://example.com/milestone' },
			})
		).data;
		const scan = () => sandbox.control('POST', '/scans', { qr_code_id: code.id });
		await scan(); // 1 scan before activation
		const created = await n8n.createWorkflow(
			pollingTriggerWorkflow('E2E: scan milestone', {
				event: 'scanMilestone',
				milestones: '3, 100',
				filters: { search: name },
			}),
		);
		await n8n.activate(created.id);
		const cursorOf = async () =>
			(await n8n.workflow(created.id)).staticData?.[`node:${POLLING}`]?.scanCursor;
		// Activation polls once and stores the counts.
		const first = await waitFor(cursorOf, {
			what: 'the scan cursor stored at activation',
			timeoutMs: 60000,
		});
		expect(first.codes).toBe(`${code.id},1`);

		await scan();
		await scan(); // 3: the milestone
		const [summary] = await settledExecutions(created.id, 1, 'the milestone execution');
		const execution = await n8n.execution(summary.id);
		expect(execution.status).toBe('success');
		expect(execution.items('Received').map((item) => item.json)).toEqual([
			expect.objectContaining({
				id: code.id,
				name,
				milestone: 3,
				milestones_reached: [3],
				scans: 3,
			}),
		]);

		// The next poll (n8n polls every minute here) starts nothing, with a fourth scan between.
		// A poll is one read of the list with this code's name as the search (the sandbox's log).
		const polls = async () =>
			(await sandbox.control('GET', '/requests')).data.filter(
				(request) => request.path === '/qr-codes' && request.query.search === name,
			).length;
		const after = await polls();
		await scan();
		await waitFor(async () => (await polls()) >= after + 1, {
			what: 'the next poll',
			timeoutMs: 180000,
			intervalMs: 1000,
		});
		expect(await triggeredExecutions(created.id)).toHaveLength(1);
		// n8n stores a polling trigger's static data at activation and with each poll that starts
		// the workflow: the counts as of the milestone.
		expect((await cursorOf()).codes).toBe(`${code.id},3`);
		await n8n.deactivate(created.id);
	}, 360000);

	describe.each([
		['the original workflow', false],
		['the currently saved workflow', true],
	])('Retry of a failed execution with %s', (_which, loadWorkflow) => {
		test('a create that failed half-way, retried and failed again, then retried again makes exactly one code per row; a new run makes new codes', async () => {
			const prefix = `Retried ${loadWorkflow ? 'current' : 'original'}`;
			const rows = Array.from({ length: 20 }, (_, index) => ({
				name: `${prefix} ${index}`,
				url: `https://example.com/retried/${index}`,
			}));
			const { data: me } = await sandboxApi(sandbox, 'GET', '/me');
			const liveCodes = async () =>
				(await sandbox.control('GET', '/qr-codes')).data.filter(
					(code) => !code.deleted && code.workspace_id === me.workspace.id,
				);
			const namesCount = async () => {
				const counts = new Map(rows.map((row) => [row.name, 0]));
				for (const code of await liveCodes()) {
					if (counts.has(code.name)) counts.set(code.name, counts.get(code.name) + 1);
				}
				return [...counts.values()];
			};

			// The plan allows 10 more codes: the service refuses the 11th create (422).
			const before = (await liveCodes()).length;
			await sandbox.control('POST', '/faults', { codeLimit: before + 10 });
			const imported = await n8n.createWorkflow(bulkCreateWorkflow(prefix, rows));
			let failed;
			let failedAgain;
			try {
				failed = await n8n.runWorkflow(imported.id);
				expect(failed.status).toBe('error');
				expect(failed.error.message).toMatch(/plan/i);
				expect(await namesCount()).toEqual(expect.arrayContaining([0, 1]));
				expect((await namesCount()).reduce((sum, count) => sum + count, 0)).toBe(10);

				// The user raises the plan a little and clicks Retry: 5 more, then it fails again.
				await sandbox.control('POST', '/faults', { codeLimit: before + 15 });
				failedAgain = await n8n.retryExecution(imported.id, failed.id, { loadWorkflow });
				expect(failedAgain.status).toBe('error');
				expect(failedAgain.mode).toBe('retry');
				expect((await namesCount()).every((count) => count <= 1)).toBe(true);
				expect((await namesCount()).reduce((sum, count) => sum + count, 0)).toBe(15);
			} finally {
				await sandbox.control('POST', '/faults', { codeLimit: 0 });
			}

			// Without the limit, the user retries the failed retry.
			const retried = await n8n.retryExecution(imported.id, failedAgain.id, { loadWorkflow });
			expect(retried.error).toBeNull();
			expect(retried.mode).toBe('retry');
			expect(retried.items('Create QR code').map((item) => item.json.name)).toEqual(
				rows.map((row) => row.name),
			);
			expect(await namesCount()).toEqual(rows.map(() => 1));
			// The id n8n carried from the first execution into the retries, in the node's context.
			expect(retried.data.executionData.contextData['node:Create QR code']).toEqual({
				runId: failed.id,
			});

			// Running the workflow again is a new run: every row gets a new code.
			const again = await n8n.runWorkflow(imported.id);
			expect(again.error).toBeNull();
			expect(await namesCount()).toEqual(rows.map(() => 2));
		});
	});

	test("switch-campaign-with-undo after a run that failed part way: n8n's Retry, then the example's Undo puts all 30 codes back byte for byte", async () => {
		const example = examples['switch-campaign-with-undo.json'];
		const SWITCH = 'Switch the spring flyers';
		const UNDO = 'Undo: put each code back';
		const prefix = `Retry Flyer ${version}`;
		const made = [];
		for (let index = 0; index < 30; index++) {
			const payload = { url: `https://example.com/retry-flyer/${index}` };
			made.push(
				(
					await sandboxApi(sandbox, 'POST', '/qr-codes', {
						name: `${prefix} ${index}`,
						type: 'url',
						payload,
					})
				).data,
			);
		}
		const ids = new Set(made.map((code) => code.id));
		/** Every field of the 30 codes as the service holds them, but when each was last written. */
		const state = async () =>
			JSON.stringify(
				(await sandbox.control('GET', '/qr-codes')).data
					.filter((code) => ids.has(code.id))
					.map(({ updated_at: _written, ...code }) => code),
			);
		const withNodes = (name, change) => ({
			...example,
			name: `${example.name} (${name})`,
			nodes: example.nodes.map((node) => change(node) ?? node),
		});
		try {
			const original = await state();
			const live = withNodes('live', (node) =>
				node.name === SWITCH
					? {
							...node,
							parameters: { ...node.parameters, dryRun: false, filters: { name: `${prefix} *` } },
						}
					: undefined,
			);
			const imported = await n8n.createWorkflow(live);
			// 11 writes go through, then the service answers one with 500: the run fails part way.
			await sandbox.control('POST', '/faults', { patchFailAfter: 11, patchFailures: 1 });
			let failed;
			try {
				failed = await n8n.runWorkflow(imported.id);
			} finally {
				await sandbox.control('POST', '/faults', { patchFailAfter: 0, patchFailures: 0 });
			}
			expect(failed.status).toBe('error');
			expect(failed.error.message).toMatch(/^Code \w+: /);
			const switched = (await sandbox.control('GET', '/qr-codes')).data.filter(
				(code) => ids.has(code.id) && code.payload.url === 'https://example.com/summer-sale',
			);
			expect(switched.length).toBeGreaterThanOrEqual(11);
			expect(switched.length).toBeLessThan(30);

			const retried = await n8n.retryExecution(imported.id, failed.id);
			expect(retried.error).toBeNull();
			expect(retried.mode).toBe('retry');
			const items = retried.items(SWITCH).map((item) => item.json);
			expect(items).toHaveLength(30);
			expect(items.filter((code) => code.written)).toHaveLength(30 - switched.length);
			const originals = new Map(made.map((code) => [code.id, code]));
			for (const code of items) expect(code.before.payload).toEqual(originals.get(code.id).payload);

			// "Debug in editor" on the retry: its Update Many output pinned, the Undo enabled.
			const undo = withNodes('undo', (node) =>
				node.name === UNDO ? { ...node, disabled: false } : undefined,
			);
			undo.pinData = { [SWITCH]: items.map((json) => ({ json })) };
			const back = await n8n.runWorkflow((await n8n.createWorkflow(undo)).id);
			expect(back.error).toBeNull();
			expect(back.items(UNDO)).toHaveLength(30);
			expect(await state()).toBe(original);
		} finally {
			for (const { id } of made) await sandboxApi(sandbox, 'DELETE', `/qr-codes/${id}`);
		}
	});

	test('trigger: activation registers the endpoint, verified scans and leads start executions, forged deliveries are refused, deactivation removes it', async () => {
		const code = (
			await sandboxApi(sandbox, 'POST', '/qr-codes', {
				name: `Trigger ${version}`,
				type: 'url',
				payload: { url: 'https://example.com/trigger' },
			})
		).data;
		const created = await n8n.createWorkflow(triggerWorkflow(['lead.created', 'scan.created']));
		const webhookUrl = n8n.webhookUrl(created.webhookIds['Dynamic QR Trigger']);

		await n8n.activate(created.id);
		const registered = await endpointsAt(webhookUrl, 1);
		expect(registered).toHaveLength(1);
		expect(registered[0]).toMatchObject({
			status: 'active',
			events: ['lead.created', 'scan.created'],
		});
		const endpointId = registered[0].id;

		// A simulated scan and a simulated lead, each delivered signed by the sandbox.
		const scan = (
			await sandbox.control('POST', '/scans', {
				qr_code_id: code.id,
				country: 'FR',
				city: 'Paris',
				device: 'mobile',
			})
		).data;
		const [scanExecution] = await settledExecutions(created.id, 1, 'the execution of the scan');
		expect(scanExecution.status).toBe('success');
		const lead = (
			await sandbox.control('POST', '/leads', {
				name: 'Ada Lovelace',
				email: 'ada@example.com',
				company: 'Analytical Engines',
			})
		).data;
		const executions = await settledExecutions(created.id, 2, 'the execution of the lead');
		expect(executions.map((execution) => execution.status)).toEqual(['success', 'success']);
		const events = [];
		for (const summary of executions) {
			const execution = await n8n.execution(summary.id);
			expect(execution.mode).toBe('webhook');
			const items = execution.items('Dynamic QR Trigger');
			expect(items).toHaveLength(1);
			expect(execution.items('Received')).toHaveLength(1);
			events.push(items[0].json);
		}
		const scanEvent = events.find((event) => event.type === 'scan.created');
		const leadEvent = events.find((event) => event.type === 'lead.created');
		expect(scanEvent.data).toMatchObject({
			qr_code: { id: code.id, name: code.name, type: 'url' },
			short_url: code.short_url,
			country: 'FR',
			city: 'Paris',
			device: 'mobile',
			scanned_at: scan.scanned_at,
		});
		expect(leadEvent.data.lead).toMatchObject({
			id: lead.id,
			name: 'Ada Lovelace',
			email: 'ada@example.com',
			company: 'Analytical Engines',
		});
		expect(leadEvent.data.card.id).toBe(sandbox.cardId);
		const deliveries = (await sandbox.control('GET', `/deliveries?endpoint_id=${endpointId}`)).data;
		for (const event of events) {
			const delivery = deliveries.find((entry) => entry.event_id === event.id);
			expect(delivery).toMatchObject({ status: 'succeeded', type: event.type });
			// The Standard Webhooks headers the node verified are in the item (the sandbox uses
			// the event id as webhook-id).
			expect(event.webhook_id).toBe(event.id);
			expect(Number.isInteger(event.webhook_timestamp)).toBe(true);
		}
		expect(scanExecution.id).toBeDefined();

		// The deliveries are recorded in the workflow's stored static data (shared by every n8n
		// process), and a resend of one (same webhook-id, freshly signed) starts nothing.
		const stored = (await n8n.workflow(created.id)).staticData?.['node:Dynamic QR Trigger'];
		// (fixed-width keys: the scan's webhook-id, the lead under its own id)
		const keys = [scanEvent.id, `lead.created:${lead.id}`];
		expect(stored?.deliveries).toHaveLength(keys.length * ENTRY_LENGTH);
		for (const key of keys) expect(isRecorded(stored, key, Date.now())).toBe(true);
		const scanDelivery = deliveries.find((entry) => entry.event_id === scanEvent.id);
		const resend = await sandbox.control('POST', `/deliveries/${scanDelivery.id}/resend`);
		expect(resend.data.attempt.status_code).toBe(200);
		// A started execution would be saved within moments of the answer; give it time to show.
		await new Promise((resolve) => setTimeout(resolve, 3000));
		expect(await settledExecutions(created.id, 2, 'the executions after the resend')).toHaveLength(
			2,
		);

		// A forged delivery (a signature made with another secret) is refused. Refusals that go on
		// for 20 s are seen: one failed execution says why and what to do, and runs no node after
		// the trigger; the next 20 in the same 10 minutes, and an unsigned one, answer 401.
		const body = JSON.stringify({
			id: 'evt_forged',
			type: 'scan.created',
			created_at: new Date().toISOString(),
			data: scanEvent.data,
		});
		expect(await postForgedUntilSeen(webhookUrl, body)).toEqual([401, 500]);
		const failed = (await settledExecutions(created.id, 3, 'the failed execution')).find(
			(summary) => summary.status === 'error',
		);
		const refusal = await n8n.execution(failed.id);
		expect(refusal.error).toMatchObject({
			message: 'A delivery was refused: no v1 signature in webhook-signature matches the body',
			description: expect.stringContaining('signed for another endpoint'),
		});
		expect(Object.keys(refusal.runData)).not.toContain('Received');
		for (let index = 0; index < 20; index++)
			expect((await postForged(webhookUrl, body)).status).toBe(401);
		const unsigned = await fetch(webhookUrl, {
			method: 'POST',
			headers: { 'content-type': 'application/json' },
			body,
		});
		expect(unsigned.status).toBe(401);
		// A genuine scan after the forged ones: once its execution exists, every earlier
		// delivery has been answered, so the count shows the others started nothing.
		await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		const after = await settledExecutions(created.id, 4, 'the execution of the third event');
		expect(after).toHaveLength(4);
		for (const summary of after.filter((execution) => execution.status !== 'error')) {
			const execution = await n8n.execution(summary.id);
			expect(execution.items('Dynamic QR Trigger')[0].json.id).not.toBe('evt_forged');
		}

		await n8n.deactivate(created.id);
		expect(await endpointsAt(webhookUrl, 0)).toEqual([]);
		const all = (await sandbox.control('GET', '/webhooks')).data;
		expect(all.filter((endpoint) => endpoint.id === endpointId)).toEqual([]);
	});

	test('trigger with Only at Scan Milestones: a scan starts it when its code reaches a milestone, once; milestones passed before activation never do, nor after a re-activation', async () => {
		const TRIGGER = 'Dynamic QR Trigger';
		const code = async (name) =>
			(
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: `${name} ${crypto.randomUUID().slice(0, 8)}`,
					type: 'url',
					payload: { url: 'https://example.com/milestones' },
				})
			).data;
		const passed = await code('Passed 2');
		const fresh = await code('Fresh');
		const scan = (qrCode) => sandbox.control('POST', '/scans', { qr_code_id: qrCode.id });
		await scan(passed);
		await scan(passed);
		const created = await n8n.createWorkflow(
			triggerWorkflow(['scan.created'], { scanMilestones: '2, 4' }),
		);
		await n8n.activate(created.id);
		const storedMilestones = async () =>
			(await n8n.workflow(created.id)).staticData?.[`node:${TRIGGER}`]?.scanMilestones;
		// The baseline, stored at activation: the milestones each code had passed.
		const baseline = await storedMilestones();
		expect(baseline.baseline).toBe('2,4|');
		expect(baseline.claims.split(';')).toContain(`${passed.id},2`);

		await scan(passed); // 3
		await scan(passed); // 4: the milestone
		await settledExecutions(created.id, 1, 'the execution of the first milestone');
		await scan(fresh);
		await scan(fresh); // 2: the milestone
		const executions = await settledExecutions(created.id, 2, 'the second milestone');
		const items = [];
		const oldestFirst = (list) => [...list].sort((a, b) => Number(a.id) - Number(b.id));
		for (const summary of oldestFirst(executions)) {
			const execution = await n8n.execution(summary.id);
			expect(execution.status).toBe('success');
			items.push(...execution.items(TRIGGER).map((item) => item.json));
		}
		expect(
			items.map(({ type, data, milestone, milestones_reached: reached, scans }) => [
				type,
				data.qr_code.id,
				milestone,
				reached,
				scans,
			]),
		).toEqual([
			['scan.created', passed.id, 4, [4], 4],
			['scan.created', fresh.id, 2, [2], 2],
		]);
		// Both claims are stored (the last with the trigger's resync once the deliveries are quiet).
		await waitFor(
			async () => {
				const claims = (await storedMilestones()).claims.split(';');
				return claims.includes(`${passed.id},4`) && claims.includes(`${fresh.id},2`)
					? claims
					: null;
			},
			{ what: 'both claims stored' },
		);

		// Deactivated and activated again: the claims are kept, so no milestone starts it twice.
		await n8n.deactivate(created.id);
		await n8n.activate(created.id);
		expect((await storedMilestones()).baseline).toBe('2,4|');
		await scan(fresh); // 3
		await scan(passed); // 5
		await scan(fresh); // 4: the next milestone, and the only start since
		const after = await settledExecutions(created.id, 3, 'the milestone after re-activation');
		expect(after).toHaveLength(3);
		const last = await n8n.execution(oldestFirst(after).at(-1).id);
		expect(last.items(TRIGGER)[0].json).toMatchObject({
			milestone: 4,
			scans: 4,
			data: { qr_code: { id: fresh.id } },
		});
		await n8n.deactivate(created.id);
	});

	test('trigger version 2 with an endpoint created in the dashboard: its credential’s secret verifies scans; forged ones are refused', async () => {
		const webhookId = crypto.randomUUID();
		const url = n8n.webhookUrl(webhookId);
		const endpoint = (
			await sandboxApi(sandbox, 'POST', '/webhooks', { url, events: ['scan.created'] })
		).data;
		const credential = await n8n.createCredential({
			name: 'Dashboard endpoint secret',
			type: 'dynamicQrSigningSecretApi',
			data: { signingSecret: endpoint.secret },
		});
		const created = await n8n.createWorkflow(dashboardTriggerWorkflow(webhookId, credential.name), {
			keepWebhookIds: true,
		});
		await n8n.activate(created.id);
		try {
			const code = (
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: 'e2e dashboard v2',
					type: 'url',
					payload: { url: 'https://example.com/v2' },
				})
			).data;
			await sandbox.control('POST', '/scans', { qr_code_id: code.id });
			const [execution] = await settledExecutions(created.id, 1, 'the execution of the scan');
			expect(execution.status).toBe('success');
			const [item] = (await n8n.execution(execution.id)).items('Dynamic QR Trigger');
			expect(item.json).toMatchObject({ type: 'scan.created', data: { qr_code: { id: code.id } } });

			// A moment's refusal starts nothing (how refusals that go on are seen: the trigger test
			// above; the credential's fix text: test/trigger/webhookTrigger.test.js).
			const forged = await postForged(
				url,
				JSON.stringify({ id: 'evt_x', type: 'scan.created', data: {} }),
			);
			expect(forged.status).toBe(401);
			expect(await triggeredExecutions(created.id)).toHaveLength(1);
		} finally {
			await n8n.deactivate(created.id);
			await sandboxApi(sandbox, 'DELETE', `/webhooks/${endpoint.id}`);
		}
		// The workflow holds no secret: it is in the encrypted credential.
		expect(JSON.stringify(await n8n.workflow(created.id))).not.toContain(endpoint.secret);
	});

	describe('every example workflow imports and runs', () => {
		test('the examples are the thirteen documented ones, each importable', () => {
			expect(Object.keys(examples)).toEqual([
				'add-leads-to-crm.json',
				'bulk-create-qr-codes.json',
				'download-print-files.json',
				'import-codes-from-sheet.json',
				'print-pack-from-sheet.json',
				'quiet-code-alert.json',
				'repair-stopped-trigger.json',
				'repoint-printed-qr-code.json',
				'scan-milestone-alert.json',
				'send-scans-to-chat.json',
				'switch-campaign-with-undo.json',
				'sync-codes-from-sheet.json',
				'weekly-scan-report.json',
			]);
			for (const example of Object.values(examples)) {
				for (const node of example.nodes) {
					// n8n's own n8n node (repair-stopped-trigger) signs in with an n8n API key.
					if (node.credentials && node.type !== 'n8n-nodes-base.n8n')
						expect(node.credentials).toEqual({ dynamicQrApi: { name: CREDENTIAL_NAME } });
				}
			}
		});

		let bulkCodes;
		test('bulk-create-qr-codes: one code per row; running it again creates nothing new (idempotency keys)', async () => {
			const example = examples['bulk-create-qr-codes.json'];
			const rows = JSON.parse(
				example.nodes.find((node) => node.name === 'Your list').parameters.jsonOutput,
			).rows;
			const imported = await n8n.createWorkflow(example);
			const first = await n8n.runWorkflow(imported.id);
			expect(first.error).toBeNull();
			bulkCodes = first.items('Create QR code').map((item) => item.json);
			expect(bulkCodes.map((code) => [code.name, code.payload.url, code.folder])).toEqual(
				rows.map((row) => [row.name, row.url, 'Bulk import']),
			);
			expect(bulkCodes.map((code) => code.tags)).toEqual(rows.map((row) => row.tags.split(', ')));
			const keys = (await sandbox.control('GET', '/requests')).data
				.filter((request) => request.method === 'POST' && request.path === '/qr-codes')
				.map((request) => request.idempotency_key);
			expect(keys).toEqual(expect.arrayContaining(rows.map((row) => `list-row-${row.row_id}`)));

			const countBefore = (await sandbox.control('GET', '/qr-codes')).data.length;
			const second = await n8n.runWorkflow(imported.id);
			expect(second.error).toBeNull();
			expect(second.items('Create QR code').map((item) => item.json.id)).toEqual(
				bulkCodes.map((code) => code.id),
			);
			expect((await sandbox.control('GET', '/qr-codes')).data).toHaveLength(countBefore);
		});

		test('import-codes-from-sheet: mixed types from the rows, the bad row on the error output, a re-run creates nothing new', async () => {
			const example = examples['import-codes-from-sheet.json'];
			const code = example.nodes.find((node) => node.name === 'Rows from a sheet').parameters
				.jsCode;
			const rows = JSON.parse(code.slice(code.indexOf('['), code.lastIndexOf(']') + 1));
			const good = rows.filter((row) => row.name !== 'Typo row');
			const imported = await n8n.createWorkflow(example);
			const first = await n8n.runWorkflow(imported.id);
			expect(first.status).toBe('success');
			expect(first.error).toBeNull();
			const codes = first.items('Imported codes').map((item) => item.json);
			expect(codes.map((entry) => [entry.name, entry.type, entry.folder])).toEqual(
				good.map((row) => [row.name, row.type, 'Sheet import']),
			);
			for (const [index, row] of good.entries())
				expect(codes[index].payload).toMatchObject(row.payload);
			const failed = first.items('Rows that failed').map((item) => item.json);
			expect(failed).toEqual([
				expect.objectContaining({
					row_id: '2006',
					error: expect.stringMatching(
						/^Invalid "URL" \(payload\.url\) in item 5: must be a full http or https URL/,
					),
				}),
			]);

			const countBefore = (await sandbox.control('GET', '/qr-codes')).data.length;
			const second = await n8n.runWorkflow(imported.id);
			expect(second.status).toBe('success');
			expect(second.items('Imported codes').map((item) => item.json.id)).toEqual(
				codes.map((entry) => entry.id),
			);
			expect(second.items('Rows that failed')).toHaveLength(1);
			expect((await sandbox.control('GET', '/qr-codes')).data).toHaveLength(countBefore);
		});

		test('sync-codes-from-sheet: the first run creates every code; with three rows changed, a run updates exactly those three and writes nothing for the rest; a run after it writes nothing', async () => {
			const example = examples['sync-codes-from-sheet.json'];
			const code = example.nodes.find((node) => node.name === 'Rows from a sheet').parameters
				.jsCode;
			const rowsAt = code.indexOf('[');
			const rows = JSON.parse(code.slice(rowsAt, code.lastIndexOf(']') + 1));
			/** The API's requests from now on: "METHOD path", and "GET /qr-codes?page=N" for list pages. */
			const requestsFrom = async () => {
				const count = (await sandbox.control('GET', '/requests')).data.length;
				return async () =>
					(await sandbox.control('GET', '/requests')).data
						.slice(count)
						.map(
							(request) =>
								`${request.method} ${request.path}${request.query.page ? `?page=${request.query.page}` : ''}`,
						);
			};
			const writesIn = (lines) => lines.filter((line) => !line.startsWith('GET'));
			/**
			 * One Return All: pages 1 … N each read once (at once, so in any order), page 1 at most
			 * once more to confirm the list held still, and no other read.
			 */
			const expectOneListRead = (lines) => {
				const reads = lines.filter((line) => line.startsWith('GET'));
				expect(reads.length).toBeGreaterThan(0);
				expect(reads.every((line) => /^GET \/qr-codes\?page=\d+$/.test(line))).toBe(true);
				const pages = reads.map((line) => Number(line.split('page=')[1])).sort((a, b) => a - b);
				const lastPage = pages[pages.length - 1];
				const eachOnce = Array.from({ length: lastPage }, (_, index) => index + 1);
				expect(pages).toEqual(pages.length > lastPage ? [1, ...eachOnce] : eachOnce);
			};
			const outcome = (execution) =>
				execution.items('Synced codes').map((item) => [item.json.name, item.json.createOrUpdate]);

			const firstRequests = await requestsFrom();
			const imported = await n8n.createWorkflow(example);
			const first = await n8n.runWorkflow(imported.id);
			expect(first.status).toBe('success');
			expect(outcome(first)).toEqual(rows.map((row) => [row.name, 'created']));
			const codes = first.items('Synced codes').map((item) => item.json);
			for (const [index, row] of rows.entries()) {
				expect(codes[index]).toEqual(
					expect.objectContaining({ type: row.type, folder: 'Synced from sheet' }),
				);
				expect(codes[index].payload).toMatchObject(row.payload);
			}
			expect(first.runData['Rows that failed']).toBeUndefined();
			const firstSeen = await firstRequests();
			expectOneListRead(firstSeen);
			expect(writesIn(firstSeen)).toEqual(rows.map(() => 'POST /qr-codes'));

			// The sheet as it is later: three rows changed (a URL, a message, a start time).
			const changed = structuredClone(rows);
			changed[1].payload.url = 'https://example.com/menu/summer';
			changed[2].payload.message = 'Hi, we are open on Sundays now!';
			changed[6].payload.starts_at = '2030-06-21T18:00:00Z';
			const laterSheet = await n8n.createWorkflow(example, {
				name: `${example.name} (rows changed)`,
				patch: (nodes) => {
					nodes['Rows from a sheet'].parameters.jsCode =
						code.slice(0, rowsAt) +
						JSON.stringify(changed, null, 2) +
						'.map((row) => ({ json: row }));';
				},
			});
			const secondRequests = await requestsFrom();
			const second = await n8n.runWorkflow(laterSheet.id);
			expect(second.status).toBe('success');
			expect(outcome(second)).toEqual(
				changed.map((row, index) => [
					row.name,
					[1, 2, 6].includes(index) ? 'updated' : 'unchanged',
				]),
			);
			const updated = second.items('Synced codes').map((item) => item.json);
			expect(updated.map((entry) => entry.id)).toEqual(codes.map((entry) => entry.id));
			for (const index of [1, 2, 6])
				expect(updated[index].payload).toMatchObject(changed[index].payload);
			const secondSeen = await secondRequests();
			expectOneListRead(secondSeen);
			// Items are under way together, so the writes may come in any order.
			expect(writesIn(secondSeen).sort()).toEqual(
				[1, 2, 6].map((index) => `PATCH /qr-codes/${codes[index].id}`).sort(),
			);

			const thirdRequests = await requestsFrom();
			const third = await n8n.runWorkflow(laterSheet.id);
			expect(third.status).toBe('success');
			expect(outcome(third)).toEqual(changed.map((row) => [row.name, 'unchanged']));
			const thirdSeen = await thirdRequests();
			expectOneListRead(thirdSeen);
			expect(writesIn(thirdSeen)).toEqual([]);
		});

		test('repoint-printed-qr-code: the printed short link now leads to the new URL', async () => {
			const example = examples['repoint-printed-qr-code.json'];
			const assignments = example.nodes.find((node) => node.name === 'What to change').parameters
				.assignments.assignments;
			const wanted = Object.fromEntries(
				assignments.map((assignment) => [assignment.name, assignment.value]),
			);
			const target = bulkCodes.find((code) => code.name === wanted.code_name);
			expect(target).toBeDefined();

			const imported = await n8n.createWorkflow(example);
			const run = await n8n.runWorkflow(imported.id);
			expect(run.error).toBeNull();
			const [updated] = run.items('Point it to the new URL').map((item) => item.json);
			expect(updated).toMatchObject({
				id: target.id,
				short_url: target.short_url,
				destination: wanted.new_url,
			});
			const visit = await fetch(target.short_url, { method: 'HEAD', redirect: 'manual' });
			expect(visit.status).toBe(302);
			expect(visit.headers.get('location')).toBe(wanted.new_url);
		});

		test('switch-campaign-with-undo: a dry run changes nothing; with Dry Run off and Undo enabled, every matching code is switched, then put back', async () => {
			const example = examples['switch-campaign-with-undo.json'];
			const SWITCH = 'Switch the spring flyers';
			const UNDO = 'Undo: put each code back';
			const create = async (name, type, payload) =>
				(await sandboxApi(sandbox, 'POST', '/qr-codes', { name, type, payload })).data;
			const flyers = [];
			for (const name of ['Spring Flyer E2E 1', 'Spring Flyer E2E 2', 'spring flyer e2e 3'])
				flyers.push(await create(name, 'url', { url: `https://example.com/${name.length}` }));
			const mail = await create('Spring Flyer E2E mail', 'email', { email: 'a@example.com' });
			const made = [
				...flyers,
				mail,
				await create('Autumn Flyer E2E', 'url', { url: 'https://x.io' }),
			];
			try {
				/** What Update Many may change, of every live code, by id. */
				const state = async () =>
					new Map(
						(await sandbox.control('GET', '/qr-codes')).data
							.filter((code) => !code.deleted)
							.map(({ id, name, type, payload, paused }) => [id, { name, type, payload, paused }]),
					);
				const original = await state();

				const dry = await n8n.runWorkflow((await n8n.createWorkflow(example)).id);
				expect(dry.error).toBeNull();
				const listed = dry.items(SWITCH).map((item) => item.json);
				const ids = listed.map((code) => code.id);
				expect(ids).toEqual(expect.arrayContaining([...flyers, mail].map((code) => code.id)));
				expect(listed.every((code) => code.dryRun === true && code.written === false)).toBe(true);
				expect(await state()).toEqual(original);

				const live = {
					...example,
					name: `${example.name} (live)`,
					nodes: example.nodes.map((node) => {
						if (node.name === SWITCH)
							return { ...node, parameters: { ...node.parameters, dryRun: false } };
						return node.name === UNDO ? { ...node, disabled: false } : node;
					}),
				};
				const run = await n8n.runWorkflow((await n8n.createWorkflow(live)).id);
				expect(run.error).toBeNull();
				const switched = run.items(SWITCH).map((item) => item.json);
				for (const { id } of flyers) {
					expect(switched.find((code) => code.id === id)).toMatchObject({
						written: true,
						after: { payload: { url: 'https://example.com/summer-sale' } },
					});
				}
				expect(switched.find((code) => code.id === mail.id)).toMatchObject({
					written: false,
					skipped: expect.any(String),
				});
				expect(run.items(UNDO)).toHaveLength(switched.length);
				expect(await state()).toEqual(original);
			} finally {
				// The cases after this one find codes by name ("Spring Flyer"): none of these is left.
				for (const { id } of made) await sandboxApi(sandbox, 'DELETE', `/qr-codes/${id}`);
			}
		});

		test('download-print-files: PNG, SVG, PDF and EPS at 50 mm / 300 dpi', async () => {
			const imported = await n8n.createWorkflow(examples['download-print-files.json']);
			const run = await n8n.runWorkflow(imported.id);
			expect(run.error).toBeNull();
			const target = bulkCodes.find((code) => code.name === 'Spring Flyer');
			const expected = {
				PNG: 'image/png',
				SVG: 'image/svg+xml',
				PDF: 'application/pdf',
				EPS: 'application/postscript',
			};
			for (const [label, mimeType] of Object.entries(expected)) {
				const [item] = run.items(`${label} 50 mm`);
				expect(item.json).toMatchObject({ id: target.id, format: label.toLowerCase() });
				expect(item.binary.data).toMatchObject({
					mimeType,
					fileName: `qr-${target.id}.${label.toLowerCase()}`,
				});
				const bytes = await n8n.binary(item.binary.data);
				if (label === 'PNG') {
					// 50 mm at 300 dpi = 590.6 dots.
					expect(decodePng(bytes)).toEqual({ width: 591, height: 591, text: target.short_url });
				}
				if (label === 'PDF') {
					// 50 mm = 141.73 pt: the page is the printed size.
					expect(bytes.toString('latin1')).toMatch(/MediaBox\s*\[\s*0 0 141\.7\d*/);
				}
				if (label === 'EPS')
					expect(bytes.toString('latin1')).toMatch(/%%BoundingBox: 0 0 142 142\n/);
				if (label === 'SVG') expect(bytes.toString('utf8')).toMatch(/width="50mm"/);
			}
		});

		test('print-pack-from-sheet: 100 rows become one ZIP of 100 PDFs named by their keys, each decoding to its row’s short link; a second run creates no code and the same ZIP; a bad key fails only its row', async () => {
			const example = examples['print-pack-from-sheet.json'];
			const BAD_ROW = 42;
			const rows = Array.from({ length: 100 }, (_, index) => ({
				key: index === 7 ? 'Suite 7/B' : `K-${1000 + index}`,
				name: `Print pack row ${index}`,
				url: `https://example.com/print/${index}`,
			}));
			const fileOf = (row) => `${row.key.replace('/', '_')}.pdf`;
			const withRows = (sheet) => ({
				...example,
				nodes: example.nodes.map((node) =>
					node.name === 'Rows from a sheet'
						? { ...node, parameters: { jsCode: `return ${JSON.stringify(sheet)};` } }
						: node,
				),
			});
			const imported = await n8n.createWorkflow(withRows(rows));
			/** A run, its ZIP's files, and what it sent: creates, and reads of one code (none: one request per file). */
			const runPack = async ({ id } = imported, files = rows.length) => {
				const before = (await sandbox.control('GET', '/requests')).data.length;
				const run = await n8n.runWorkflow(id, { timeoutMs: 300000 });
				expect(run.error).toBeNull();
				const [pack] = run.items('Print pack (ZIP)');
				expect(run.items('Print pack (ZIP)')).toHaveLength(1);
				expect(pack.binary.data.fileName).toBe('print-pack.zip');
				const zip = unzipped(await n8n.binary(pack.binary.data));
				const sent = (await sandbox.control('GET', '/requests')).data.slice(before);
				const creates = sent.filter((r) => r.method === 'POST' && r.path === '/qr-codes');
				const images = sent.filter((r) => r.path.endsWith('/image') && r.status === 200);
				expect(
					sent.filter((r) => r.method === 'GET' && /^\/qr-codes\/[^/]+$/.test(r.path)),
				).toEqual([]);
				expect(images).toHaveLength(files);
				return { run, zip, creates };
			};

			const first = await runPack();
			try {
				const codes = new Map(
					first.run.items('Create or update codes').map(({ json }) => [json.name, json]),
				);
				expect(first.creates).toHaveLength(100);
				expect([...first.zip.names].sort()).toEqual([...rows.map(fileOf), 'manifest.csv'].sort());
				const read = readPdfCodes(rows.map((row) => first.zip.path(fileOf(row))));
				expect(read).toEqual(
					rows.map((row) => ({ pages: 1, text: codes.get(row.name).short_url })),
				);
				const manifest = first.zip.read('manifest.csv').toString('utf8').trim().split('\n');
				expect(manifest[0]).toBe('key,name,short_url,file_name');
				expect(manifest.slice(1)).toEqual(
					rows.map((row) =>
						[row.key, row.name, codes.get(row.name).short_url, fileOf(row)].join(','),
					),
				);

				const second = await runPack();
				try {
					expect(second.creates).toEqual([]);
					expect([...second.zip.names].sort()).toEqual([...first.zip.names].sort());
					for (const name of first.zip.names)
						expect([name, second.zip.read(name).equals(first.zip.read(name))]).toEqual([
							name,
							true,
						]);
				} finally {
					second.zip.remove();
				}

				// The same sheet with one key that makes no file name: that row fails, naming it; the
				// other 99 are in the ZIP, and no code is created.
				const bad = rows.map((row, index) => (index === BAD_ROW ? { ...row, key: '???' } : row));
				const third = await runPack(await n8n.createWorkflow(withRows(bad)), 99);
				try {
					expect(third.creates).toEqual([]);
					const good = rows.filter((_, index) => index !== BAD_ROW);
					expect([...third.zip.names].sort()).toEqual([...good.map(fileOf), 'manifest.csv'].sort());
					expect(third.run.items('Rows that failed').map((item) => item.json)).toEqual([
						expect.objectContaining({
							name: rows[BAD_ROW].name,
							error: expect.stringMatching(
								/^Invalid "File Name" \(in Options\) in item 42: got the text "\?\?\?", expected a name with a letter or digit/,
							),
						}),
					]);
				} finally {
					third.zip.remove();
				}
			} finally {
				first.zip.remove();
			}
		});

		test('send-scans-to-chat: every scan is posted to the chat webhook', async () => {
			const target = bulkCodes.find((code) => code.name === 'Shop Window Poster');
			const imported = await n8n.createWorkflow(examples['send-scans-to-chat.json'], {
				patch: (nodes) => {
					nodes['Post to chat'].parameters.url = `${receiver.url}/chat`;
				},
			});
			await n8n.activate(imported.id);
			const webhookUrl = n8n.webhookUrl(imported.webhookIds['On every scan']);
			expect(await endpointsAt(webhookUrl, 1)).toHaveLength(1);

			await sandbox.control('POST', '/scans', {
				qr_code_id: target.id,
				country: 'DE',
				city: 'Hamburg',
				device: 'mobile',
				os: 'iOS',
				browser: 'Safari',
			});
			const [summary] = await settledExecutions(imported.id, 1, 'the scan execution');
			const execution = await n8n.execution(summary.id);
			expect(execution.status).toBe('success');
			expect(execution.items('Post to chat')).toHaveLength(1);
			const posted = receiver.records.filter((request) => request.path === '/chat');
			expect(posted).toHaveLength(1);
			expect(posted[0].method).toBe('POST');
			expect(posted[0].body.text).toMatch(
				/^QR code "Shop Window Poster" was scanned in Hamburg, DE \(mobile, iOS, Safari\) at \d{4}-/,
			);

			await n8n.deactivate(imported.id);
			expect(await endpointsAt(webhookUrl, 0)).toEqual([]);
		});

		test('weekly-scan-report: Get Scan Report of the last 7 days, posted to the chat webhook', async () => {
			// A code of its own, scanned 3 and 10 days ago at noon UTC: in the last 7 days and in the
			// 7 before them in any time zone n8n runs in. Other tests scan only now (today: left out).
			const code = (
				await sandboxApi(sandbox, 'POST', '/qr-codes', {
					name: `Weekly report ${version}`,
					type: 'url',
					payload: { url: 'https://example.com/weekly' },
				})
			).data;
			const daysAgo = (days) =>
				new Date(Date.now() - days * 24 * 60 * 60 * 1000).toISOString().slice(0, 10);
			for (const [days, country] of [
				[3, 'NL'],
				[3, 'NL'],
				[3, 'BE'],
				[10, 'NL'],
			]) {
				await sandbox.control('POST', '/scans', {
					qr_code_id: code.id,
					scanned_at: `${daysAgo(days)}T12:00:00Z`,
					country,
				});
			}
			const imported = await n8n.createWorkflow(examples['weekly-scan-report.json'], {
				patch: (nodes) => {
					nodes['Post to chat'].parameters.url = `${receiver.url}/weekly`;
				},
			});
			// The Schedule Trigger's workflow run by hand, as "Execute workflow" does.
			const run = await n8n.runWorkflow(imported.id, { triggerName: 'Every Monday at 09:00' });
			expect(run.error).toBeNull();
			expect(run.status).toBe('success');
			const [summary] = run.items('Weekly scan report').map((item) => item.json);
			expect(summary).toMatchObject({
				period: 'last7Days',
				scans: 3,
				previous_scans: 1,
				change: 2,
				change_percent: 200,
			});
			expect(summary.per_code[0]).toMatchObject({
				id: code.id,
				short_url: code.short_url,
				scans: 3,
				previous_scans: 1,
			});
			expect(summary.top.country).toEqual([
				{ value: 'NL', scans: 2 },
				{ value: 'BE', scans: 1 },
			]);
			const posted = receiver.records.filter((request) => request.path === '/weekly');
			expect(posted).toHaveLength(1);
			expect(posted[0].body.text).toBe(
				[
					`QR code scans ${summary.from} to ${summary.to}: 3 (+200% on the week before)`,
					`Top codes: ${code.name} 3`,
					'Top countries: NL 2, BE 1',
					`Top devices: ${summary.top.device.map((entry) => `${entry.value} ${entry.scans}`).join(', ')}`,
				].join('\n'),
			);
		});

		test.each([
			['scan-milestone-alert.json', 'On scan milestone', 'Post to chat'],
			['quiet-code-alert.json', 'On quiet code', 'Tell the owner'],
		])(
			'%s: activates, its first poll stores the counts of the codes and starts nothing',
			async (file, trigger, post) => {
				const imported = await n8n.createWorkflow(examples[file], {
					patch: (nodes) => {
						nodes[post].parameters.url = `${receiver.url}/chat`;
					},
				});
				await n8n.activate(imported.id);
				const cursor = await waitFor(
					async () => (await n8n.workflow(imported.id)).staticData?.[`node:${trigger}`]?.scanCursor,
					{ what: `the scan cursor of ${file}`, timeoutMs: 60000 },
				);
				// One entry per code of the account: its id and count (and the quiet flag).
				const entries = cursor.codes.split(';');
				expect(entries.length).toBeGreaterThan(0);
				for (const entry of entries) expect(entry).toMatch(/^[A-Za-z0-9_-]{12},\d+(,1)?$/);
				expect(await triggeredExecutions(imported.id)).toEqual([]);
				await n8n.deactivate(imported.id);
			},
		);

		test('add-leads-to-crm: every lead becomes a CRM row', async () => {
			const imported = await n8n.createWorkflow(examples['add-leads-to-crm.json'], {
				patch: (nodes) => {
					nodes['Add to CRM'].parameters.url = `${receiver.url}/crm/contacts`;
				},
			});
			await n8n.activate(imported.id);
			const webhookUrl = n8n.webhookUrl(imported.webhookIds['On every lead']);
			expect(await endpointsAt(webhookUrl, 1)).toHaveLength(1);

			const lead = (
				await sandbox.control('POST', '/leads', {
					name: 'Grace Hopper',
					email: 'grace@example.com',
					phone: '+14155550199',
					company: 'Navy',
					message: 'Call me',
				})
			).data;
			const [summary] = await settledExecutions(imported.id, 1, 'the lead execution');
			expect((await n8n.execution(summary.id)).status).toBe('success');
			const rows = receiver.records.filter((request) => request.path === '/crm/contacts');
			expect(rows).toHaveLength(1);
			const card = (await sandboxApi(sandbox, 'GET', `/cards/${sandbox.cardId}`)).data;
			expect(rows[0].body).toEqual({
				full_name: 'Grace Hopper',
				email: 'grace@example.com',
				phone: '+14155550199',
				company: 'Navy',
				note: 'Call me',
				source: `Business card: ${card.name}`,
				lead_id: lead.id,
				received_at: lead.created_at,
			});

			await n8n.deactivate(imported.id);
			expect(await endpointsAt(webhookUrl, 0)).toEqual([]);
		});
	});

	// Last: it moves n8n's clock and the service's 25 hours ahead, for the rest of this n8n.
	test('trigger after a quiet weekend (n8n and the service 25 hours on): the next lead starts the workflow once, the lead before the silence never again', async () => {
		const created = await n8n.createWorkflow(triggerWorkflow(['lead.created']));
		await n8n.activate(created.id);
		await endpointsAt(n8n.webhookUrl(created.webhookIds['Dynamic QR Trigger']), 1);
		const friday = (await sandbox.control('POST', '/leads', { name: 'Friday' })).data;
		await settledExecutions(created.id, 1, "the execution of Friday's lead");

		await passTimeForN8n(25 * 60 * 60);
		const logged = (await sandbox.control('GET', '/requests')).data.length;
		const monday = (await sandbox.control('POST', '/leads', { name: 'Monday' })).data;
		await settledExecutions(created.id, 2, "the execution of Monday's lead");
		// Silent for longer than the service's retries: the trigger catches up from Friday, reads
		// the leads and finds nothing it has not started.
		await waitFor(
			async () =>
				(await sandbox.control('GET', `/requests?from=${logged}`)).data.find(
					(request) => request.path.endsWith('/leads') && request.query.since && request.status,
				) ?? null,
			{ what: 'the catch-up reading the leads since Friday' },
		);
		let seen = -1;
		const executions = await waitFor(
			async () => {
				const list = await settledExecutions(created.id, 2, 'the executions');
				const quiet = list.length === seen;
				seen = list.length;
				return quiet ? list : null;
			},
			{ what: 'no execution after the catch-up', intervalMs: 1500 },
		);
		const leads = [];
		for (const summary of [...executions].sort((a, b) => Number(a.id) - Number(b.id)))
			leads.push(
				(await n8n.execution(summary.id)).items('Dynamic QR Trigger').map((item) => item.json),
			);
		expect(leads.map((items) => items.map((item) => [item.data.lead.id, item.caught_up]))).toEqual([
			[[friday.id, undefined]],
			[[monday.id, undefined]],
		]);
		await n8n.deactivate(created.id);
	});

	// After the weekend, on n8n 2.41.1 only: it moves both clocks on by two more silences.
	if (version === N8N_VERSIONS.current)
		test('README "Each event once" built as written (Postgres claim → Merge), the Polling Trigger beside the trigger on the same account: every lead passes exactly once across two catch-ups, with 10,000 keys claimed before (the recipe keeps no history size, so none is reached), and under a burst of 30 deliveries the next poll brings again; Remove Duplicates on webhook_id, the old advice, loses the second catch-up', async () => {
			const HOUR = 60 * 60;
			const TRIGGER = 'Dynamic QR Trigger';
			const POLLING = 'Dynamic QR Polling Trigger';
			const OLD_ADVICE = 'Remove Duplicates (old advice)';
			const recipe = readRecipe(fs.readFileSync(path.join(__dirname, '../../README.md'), 'utf8'));
			const pg = { host: '127.0.0.1', port: 5432, user: 'postgres' };
			const database = `dqr_events_${crypto.randomUUID().slice(0, 8)}`;
			const storage = clusterStorage({
				name: database,
				pg,
				redis: { host: '127.0.0.1', port: 6379 },
			});
			const sql = (statement) => psql(pg, statement, { database });
			storage.create();
			let created;
			try {
				sql(recipe.createTable);
				sql(
					"INSERT INTO dynamic_qr_events (event_key) SELECT 'earlier:' || n FROM generate_series(1, 10000) AS n",
				);
				await n8n.createCredential({
					name: 'Events database',
					type: 'postgres',
					data: {
						host: pg.host,
						port: pg.port,
						database,
						user: pg.user,
						password: '',
						ssl: 'disable',
					},
				});
				const claim = recipe.build({
					triggers: [TRIGGER, POLLING],
					next: 'Each event',
					credential: 'Events database',
				});
				const api = credentialRef('dynamicQrApi', CREDENTIAL_NAME);
				created = await n8n.createWorkflow(
					workflow(
						'E2E: each event once',
						[
							node(
								TYPES.dynamicQrTrigger,
								{ events: ['lead.created'] },
								{
									name: TRIGGER,
									typeVersion: 2,
									credentials: api,
									webhookId: 'set-by-createWorkflow',
								},
							),
							node(
								TYPES.dynamicQrPollingTrigger,
								{ pollTimes: { item: [{ mode: 'everyMinute' }] }, event: 'newLead', cards: 'all' },
								{ name: POLLING, credentials: api },
							),
							...claim.nodes,
							node(TYPES.noOp, {}, { name: 'Each event' }),
							// What the README advised before, measured on the same events.
							removeDuplicatesOnWebhookId({
								name: OLD_ADVICE,
								onError: 'continueRegularOutput',
							}),
							node(TYPES.noOp, {}, { name: 'Old advice passed' }),
						],
						connect(
							...claim.links,
							[TRIGGER, OLD_ADVICE],
							[POLLING, OLD_ADVICE],
							[OLD_ADVICE, 'Old advice passed'],
						),
					),
				);
				await n8n.activate(created.id);
				await endpointsAt(n8n.webhookUrl(created.webhookIds[TRIGGER]), 1);
				await waitFor(
					async () =>
						Object.keys((await n8n.workflow(created.id)).staticData?.[`node:${POLLING}`] ?? {})
							.length > 0 || null,
					{ what: "the polling trigger's first poll" },
				);

				// What every finished execution's nodes put out, read once per execution.
				const read = new Map();
				const outputs = async () => {
					for (const summary of await n8n.executions(created.id)) {
						if (read.has(summary.id) || ['new', 'running', 'waiting'].includes(summary.status))
							continue;
						const execution = await n8n.execution(summary.id);
						const out = (name) => (execution.runData[name] ? execution.items(name) : []);
						read.set(summary.id, {
							status: execution.status,
							span: [Date.parse(summary.startedAt), Date.parse(summary.stoppedAt)],
							trigger: out(TRIGGER).map((item) => item.json),
							polled: out(POLLING).map((item) => item.json),
							claimed: out(recipe.claimNode).map((item) => item.json),
							passed: out('Each event').map((item) => item.json),
							oldAdvice: out('Old advice passed').map((item) => item.json),
						});
					}
					return [...read.values()];
				};
				const leadIdOf = (item) => item.data?.lead?.id ?? item.id;
				/** Once every lead has come by the webhook path (`caught` of them caught up) and by the poll. */
				const bothPaths = (leads, caught = []) =>
					waitFor(
						async () => {
							const runs = await outputs();
							const hooked = runs.flatMap((run) => run.trigger);
							const polled = new Set(runs.flatMap((run) => run.polled).map(leadIdOf));
							const caughtUp = new Set(hooked.filter((item) => item.caught_up).map(leadIdOf));
							const webhook = new Set(hooked.map(leadIdOf));
							const done =
								leads.every((lead) => webhook.has(lead.id) && polled.has(lead.id)) &&
								caught.every((lead) => caughtUp.has(lead.id));
							return done ? runs : null;
						},
						{
							what: 'every lead by the webhook path and by the poll',
							timeoutMs: 180000,
							intervalMs: 2000,
						},
					);
				const addLead = async (name) => (await sandbox.control('POST', '/leads', { name })).data;

				const delivered = [];
				for (const name of ['one', 'two', 'three'])
					delivered.push(await addLead(`Delivered ${name}`));
				await bothPaths(delivered);
				// Two silences longer than the service's retries (8.6 h), each holding back 3 leads: the
				// next delivery ends it and the trigger catches them up, while the poll brings them too.
				const held = [];
				const after = [];
				for (const silence of [1, 2]) {
					await sandbox.control('POST', '/faults', { deliveryFailRate: 1 });
					const these = [];
					for (const name of ['one', 'two', 'three'])
						these.push(await addLead(`Held back in silence ${silence}, ${name}`));
					await passTimeForN8n(10 * HOUR);
					await sandbox.control('POST', '/faults', { deliveryFailRate: 0 });
					after.push(await addLead(`After silence ${silence}`));
					await bothPaths([...these, after.at(-1)], these);
					held.push(these);
				}
				// A burst: 30 leads at once just before the poll (n8n polls every minute at a second of
				// its own: the second its recent reads of the card list came at), so 30 deliveries are
				// in flight while the poll reads the same leads.
				const readsAt = (await sandbox.control('GET', '/requests')).data
					.filter((request) => request.path === '/cards')
					.slice(-6)
					.map((request) => Math.floor(Date.parse(request.at) / 1000) % 60);
				const pollSecond = readsAt.sort(
					(a, b) =>
						readsAt.filter((second) => second === b).length -
						readsAt.filter((second) => second === a).length,
				)[0];
				await waitFor(() => (Date.now() + 60700 - pollSecond * 1000) % 60000 < 200 || null, {
					what: 'the moment before the poll',
					timeoutMs: 61000,
					intervalMs: 50,
				});
				const burst = await Promise.all(
					Array.from({ length: 30 }, (_, index) => addLead(`Burst ${index}`)),
				);
				let runs = await bothPaths(burst);
				let seen = -1;
				runs = await waitFor(
					async () => {
						const now = await outputs();
						const quiet = now.length === seen;
						seen = now.length;
						return quiet ? now : null;
					},
					{ what: 'no execution after the last', intervalMs: 3000 },
				);

				const leads = [...delivered, ...held.flat(), ...after, ...burst];
				const keyOf = (lead) => `lead.created:${lead.id}`;
				const count = (keys) => {
					const counts = Object.fromEntries(leads.map((lead) => [keyOf(lead), 0]));
					for (const key of keys) counts[key] = (counts[key] ?? 0) + 1;
					return counts;
				};
				expect(runs.map((run) => run.status).filter((status) => status !== 'success')).toEqual([]);
				// Each lead reached the recipe twice or more (a trigger each) and passed once.
				const arrived = count(
					runs.flatMap((run) => [...run.trigger, ...run.polled]).map((item) => item.event_key),
				);
				expect(Object.values(arrived).every((times) => times >= 2)).toBe(true);
				const passed = runs.flatMap((run) => run.passed);
				expect(count(passed.map((item) => item.event_key))).toEqual(count(leads.map(keyOf)));
				// What passes is the trigger's item itself (the lead in it), not the claim's row.
				expect(passed.filter((item) => keyOf({ id: leadIdOf(item) }) !== item.event_key)).toEqual(
					[],
				);
				// Runs whose keys were all claimed before: the claim puts out { success: true }, which
				// the Merge stops.
				const allClaimedBefore = runs.filter((run) => run.passed.length === 0);
				expect(allClaimedBefore.length).toBeGreaterThan(0);
				for (const run of allClaimedBefore) expect(run.claimed).toEqual([{ success: true }]);
				expect(Number(sql('SELECT count(*) FROM dynamic_qr_events'))).toBe(10000 + leads.length);
				// The old advice: a later catch-up's items (webhook_id null) and the polled leads share
				// the key '', seen before, so the leads held back in the second silence never pass.
				const oldPassed = count(runs.flatMap((run) => run.oldAdvice).map((item) => item.event_key));
				expect(held[1].map((lead) => oldPassed[keyOf(lead)])).toEqual([0, 0, 0]);
				// How much of the burst ran at once with the poll that brought it again (logged, as
				// timing on a shared machine decides it; the counts above hold either way).
				const isBurst = (item) => burst.some((lead) => lead.id === leadIdOf(item));
				const burstPolls = runs.filter((run) => run.polled.some(isBurst));
				const burstDeliveries = runs.filter((run) => run.trigger.some(isBurst));
				const during = (run) =>
					burstDeliveries.filter(
						(other) => other.span[0] <= run.span[1] && run.span[0] <= other.span[1],
					).length;
				log(
					`each event once: ${runs.length} runs for ${leads.length} leads; ${allClaimedBefore.length} stopped by the claim; the burst: ${burstDeliveries.length} delivery runs, at most ${Math.max(...burstDeliveries.map(during))} at once, ${burstPolls.map(during).join(', ')} of them running during its poll run(s)`,
				);
			} finally {
				await sandbox.control('POST', '/faults', { deliveryFailRate: 0 });
				if (created) await n8n.deactivate(created.id);
				expect(storage.remove()).toEqual([]);
			}
		}, 900000);
});
