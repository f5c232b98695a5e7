'use strict';
// Dynamic QR Polling Trigger against the sandbox, through n8n's PollContext and n8n-core's
// TriggersAndPollers.runPollFunction: only new items, none twice, nothing from before activation.
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
