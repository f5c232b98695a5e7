'use strict';
// Dynamic QR Polling Trigger against the sandbox, through n8n's PollContext and n8n-core's
// TriggersAndPollers.runPollFunction: only new items, none twice, nothing from before activation;
// a poll stays within its time budget and fails cleanly, its cursor untouched, when it cannot.
const {
	createWorkflow,
	poll,
	runWorkflowFrom,
	POLLING_TYPE,
	collected,
} = require('../engine/triggers');
const { startSandbox, createQrCode } = require('../support/sandbox');

let sandbox;

beforeAll(async () => {
	sandbox = await startSandbox();
});

afterAll(async () => {
	await sandbox.close();
});

beforeEach(async () => {
	await sandbox.control('POST', '/reset');
	collected.length = 0;
});

function pollingTrigger(parameters) {
	return createWorkflow({
		type: POLLING_TYPE,
		parameters,
		credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
	});
}

const ids = (result) => (result === null ? [] : result[0].map((item) => item.json.id));

async function addLeads(n, prefix = 'lead') {
	const leads = [];
	for (let i = 0; i < n; i++) {
		leads.push(
			(
				await sandbox.control('POST', '/leads', {
					name: `${prefix} ${i}`,
					email: `${prefix}${i}@example.com`,
				})
			).data,
		);
	}
	return leads;
}

describe('new leads on a card', () => {
	const parameters = () => ({ event: 'newLead', cardId: sandbox.cardId });

	test('leads from before activation are never emitted; new ones once each, oldest first', async () => {
		const before = await addLeads(3, 'before');
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull(); // first poll: records the high-water mark only
		expect(await poll(setup)).toBeNull();

		const first = await addLeads(2, 'first');
		expect(ids(await poll(setup))).toEqual(first.map((lead) => lead.id));
		expect(await poll(setup)).toBeNull();

		const second = await addLeads(1, 'second');
		const result = await poll(setup);
		expect(ids(result)).toEqual(second.map((lead) => lead.id));
		expect(result[0][0].json).toMatchObject({
			email: 'second0@example.com',
			card_id: sandbox.cardId,
		});

		const emitted = [...first, ...second].map((lead) => lead.id);
		expect(emitted.some((id) => before.some((lead) => lead.id === id))).toBe(false);
	});

	test('many leads across pages and polls: every new lead exactly once', async () => {
		await addLeads(5, 'old');
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull();
		const added = [];
		const emitted = [];
		for (const batch of [150, 0, 7, 1, 0, 120]) {
			added.push(...(await addLeads(batch, `b${added.length}`)).map((lead) => lead.id));
			emitted.push(...ids(await poll(setup)));
			emitted.push(...ids(await poll(setup))); // a second poll right after finds nothing new
		}
		expect(emitted).toHaveLength(added.length);
		expect(new Set(emitted).size).toBe(emitted.length);
		expect([...emitted].sort()).toEqual([...added].sort());
	});

	test('a card with no leads at activation: every later lead is new', async () => {
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull();
		const leads = await addLeads(3, 'fresh');
		expect(ids(await poll(setup))).toEqual(leads.map((lead) => lead.id));
		expect(await poll(setup)).toBeNull();
	});

	test('leads keep flowing when the service clock moves on between polls', async () => {
		const setup = pollingTrigger(parameters());
		await addLeads(1, 'old');
		expect(await poll(setup)).toBeNull();
		await sandbox.control('POST', '/clock/advance', { seconds: 3600 });
		const later = await addLeads(2, 'later');
		expect(ids(await poll(setup))).toEqual(later.map((lead) => lead.id));
		await sandbox.control('POST', '/clock/advance', { seconds: 5 });
		const next = await addLeads(1, 'next');
		expect(ids(await poll(setup))).toEqual(next.map((lead) => lead.id));
	});

	test('manual "fetch test event" shows the newest lead and leaves the cursor alone', async () => {
		const setup = pollingTrigger(parameters());
		await expect(poll(setup, { mode: 'manual' })).rejects.toThrow('This card has no leads yet');
		const leads = await addLeads(2, 'shown');
		expect(ids(await poll(setup, { mode: 'manual' }))).toEqual([leads[1].id]);
		expect(setup.workflow.staticData).toEqual({});
		expect(await poll(setup)).toBeNull(); // activation still starts from "now"
	});

	test('the emitted items start the workflow', async () => {
		const setup = pollingTrigger(parameters());
		await poll(setup);
		const [lead] = await addLeads(1, 'run');
		const result = await poll(setup);
		const run = await runWorkflowFrom(setup, result, 'trigger');
		expect(run.data.resultData.error).toBeUndefined();
		expect(collected.map((item) => item.id)).toEqual([lead.id]);
	});
});

describe('new QR codes', () => {
	const parameters = () => ({ event: 'newQrCode' });

	test('codes from before activation are never emitted; new ones once each, oldest first', async () => {
		for (let i = 0; i < 3; i++) await createQrCode(sandbox, `before ${i}`);
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull();
		const fresh = [];
		for (let i = 0; i < 4; i++) fresh.push((await createQrCode(sandbox, `after ${i}`)).id);
		expect(ids(await poll(setup))).toEqual(fresh);
		expect(await poll(setup)).toBeNull();
	});

	test('more than a page of new codes between polls, none twice', async () => {
		await createQrCode(sandbox, 'existing');
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull();
		const created = [];
		const emitted = [];
		for (const batch of [230, 3, 0, 101]) {
			for (let i = 0; i < batch; i++)
				created.push((await createQrCode(sandbox, `c${created.length}`)).id);
			emitted.push(...ids(await poll(setup)));
		}
		expect(emitted).toEqual(created); // oldest first, each exactly once
	});

	test('changing the configuration starts over from "now"', async () => {
		const setup = pollingTrigger(parameters());
		expect(await poll(setup)).toBeNull();
		await createQrCode(sandbox, 'seen by codes');
		setup.node.parameters.event = 'newLead';
		setup.node.parameters.cardId = sandbox.cardId;
		await addLeads(1, 'existing');
		expect(await poll(setup)).toBeNull(); // re-primed for leads
		const [lead] = await addLeads(1, 'new');
		expect(ids(await poll(setup))).toEqual([lead.id]);
	});
});

// ---------------------------------------------------------------------------------------------
// The poll's time budget (getPollBudgetMs, n8n-workflow 2.39 and later), with a fake budget. A wait
// the service asks for that does not fit in the budget (Retry-After on a later page of the list, a
// 429) fails the poll at once with a clear error, before the cursor is written: the stored cursor is
// exactly what it was, and the next poll emits every record once. Without getPollBudgetMs (n8n 1.x)
// the same wait is waited out, as before.

const copy = (value) => JSON.parse(JSON.stringify(value));
const listReads = async () =>
	(await sandbox.control('GET', '/requests')).data.filter(
		(request) => request.method === 'GET' && request.path === '/qr-codes',
	);

async function createCodes(count, prefix) {
	const codes = [];
	for (let i = 0; i < count; i++) codes.push(await createQrCode(sandbox, `${prefix} ${i}`));
	return codes;
}

const outOfBudget = (seconds) =>
	`The poll could not finish within the ${seconds} seconds n8n allows it`;

describe('a later page of the list asks for a wait longer than the budget left', () => {
	test('New QR Code: the poll fails at once, the cursor stays as it was, the next poll emits every new code once', async () => {
		await createCodes(1, 'before');
		const setup = pollingTrigger({ event: 'newQrCode' });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const stored = copy(setup.workflow.staticData);
		expect(stored['node:Dynamic QR Polling Trigger'].cursor.key).toBe('newQrCode');

		// 120 new codes: two pages of the list (100 a page); the second answers 503, Retry-After 30.
		const created = await createCodes(120, 'new');
		await sandbox.control('POST', '/faults', { listPageFailures: 1, retryAfterSeconds: 30 });
		const readsBefore = (await listReads()).length;
		const failed = poll(setup, { budgetMs: 20000 });
		await expect(failed).rejects.toThrow(outOfBudget(20));
		const error = await failed.catch((caught) => caught);
		expect(error.description).toMatch(
			/^The service asked to wait 30 seconds \(503\) before GET \/qr-codes, longer than the time left\. Nothing was emitted and the poll's cursor did not move/,
		);
		// What n8n 2.x's poll backoff reads: the cause and how long the service asked to wait.
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable', retryAfterMs: 30000 });
		// Page 1, then page 2 answered 503 and not asked again.
		const reads = (await listReads()).slice(readsBefore);
		expect(reads.map((read) => [read.query.page ?? '1', read.status])).toEqual([
			['1', 200],
			['2', 503],
		]);
		expect(setup.workflow.staticData).toEqual(stored);

		const next = await poll(setup, { budgetMs: 20000 });
		expect(ids(next)).toEqual(created.map((code) => code.id));
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
	});

	test('Scan Milestone: the poll ends its sweep before that page without failing; the next poll goes on there and emits the milestone once', async () => {
		const [target] = await createCodes(1, 'target');
		await createCodes(100, 'other');
		const setup = pollingTrigger({ event: 'scanMilestone', milestones: '2', filters: {} });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const cursorOf = () => setup.workflow.staticData['node:Dynamic QR Polling Trigger'].scanCursor;
		expect(cursorOf().codes.split(';')).toHaveLength(101);

		for (let i = 0; i < 2; i++) {
			await sandbox.control('POST', '/scans', { qr_code_id: target.id });
		}
		// The oldest code (the target) is on page 2 of the list, which asks to wait 30 seconds.
		await sandbox.control('POST', '/faults', { listPageFailures: 1, retryAfterSeconds: 30 });
		const readsBefore = (await listReads()).length;
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const reads = (await listReads()).slice(readsBefore);
		expect(reads.map((read) => [read.query.page ?? '1', read.status])).toEqual([
			['1', 200],
			['2', 503],
		]);
		// Page 1 read, the sweep to go on at page 2; the target's count as it was.
		expect(cursorOf().sweep).toMatchObject({ page: 2 });
		expect(cursorOf().codes).toContain(`${target.id},0`);

		const next = await poll(setup, { budgetMs: 20000 });
		expect(next[0].map((item) => item.json)).toEqual([
			expect.objectContaining({ id: target.id, milestone: 2, scans: 2 }),
		]);
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
	});

	test('a wait that fits in the budget is waited out as before', async () => {
		await createCodes(1, 'before');
		const setup = pollingTrigger({ event: 'newQrCode' });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const created = await createCodes(101, 'new');
		await sandbox.control('POST', '/faults', { listPageFailures: 1, retryAfterSeconds: 1 });
		expect(ids(await poll(setup, { budgetMs: 20000 }))).toEqual(created.map((code) => code.id));
		expect((await listReads()).filter((read) => read.status === 503)).toHaveLength(1);
	});

	test('without getPollBudgetMs (n8n 1.x) the same wait is waited out: no budget', async () => {
		await createCodes(1, 'before');
		const setup = pollingTrigger({ event: 'newQrCode' });
		expect(await poll(setup, { budgetMs: null })).toBeNull();
		const created = await createCodes(101, 'new');
		// Longer than the 1.5 s budget of the test below, well within Max Rate Limit Wait (300 s).
		await sandbox.control('POST', '/faults', { listPageFailures: 1, retryAfterSeconds: 2 });
		expect(ids(await poll(setup, { budgetMs: null }))).toEqual(created.map((code) => code.id));
		expect((await listReads()).filter((read) => read.status === 503)).toHaveLength(1);
	});

	test('the same 2-second wait with a 1.5-second budget fails the poll instead', async () => {
		await createCodes(1, 'before');
		const setup = pollingTrigger({ event: 'newQrCode' });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const stored = copy(setup.workflow.staticData);
		await createCodes(101, 'new');
		await sandbox.control('POST', '/faults', { listPageFailures: 1, retryAfterSeconds: 2 });
		await expect(poll(setup, { budgetMs: 1500 })).rejects.toThrow(outOfBudget(2));
		expect(setup.workflow.staticData).toEqual(stored);
	});
});

describe('other ways a poll meets its budget', () => {
	test('a 429 asking for longer than the budget: a rate-limited failure with the wait asked, the cursor untouched', async () => {
		const setup = pollingTrigger({ event: 'newLead', cardId: sandbox.cardId });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const stored = copy(setup.workflow.staticData);
		await sandbox.control('POST', '/leads', { name: 'Ada', email: 'ada@example.com' });
		await sandbox.control('POST', '/faults', { status429Count: 1, retryAfterSeconds: 45 });
		const error = await poll(setup, { budgetMs: 20000 }).catch((caught) => caught);
		expect(error.message).toBe(outOfBudget(20));
		expect(error.failure).toEqual({ cause: 'rate-limited', retryAfterMs: 45000 });
		expect(setup.workflow.staticData).toEqual(stored);
		const next = await poll(setup, { budgetMs: 20000 });
		expect(next[0].map((item) => item.json.name)).toEqual(['Ada']);
	});

	test('an answer slower than the budget left: the request is cut at the budget and the poll fails clearly', async () => {
		await createCodes(1, 'before');
		const setup = pollingTrigger({ event: 'newQrCode' });
		expect(await poll(setup, { budgetMs: 20000 })).toBeNull();
		const stored = copy(setup.workflow.staticData);
		await sandbox.control('POST', '/faults', { latencyMs: 1000 });
		const error = await poll(setup, { budgetMs: 300 }).catch((caught) => caught);
		expect(error.message).toBe(outOfBudget(0));
		expect(error.description).toMatch(/^The time was up before GET \/qr-codes\./);
		expect(error.failure).toEqual({ cause: 'temporarily-unavailable' });
		expect(setup.workflow.staticData).toEqual(stored);
	});
});
