'use strict';
/**
 * The webhook trigger and the polling trigger against the sandbox answering other readings of
 * what the API reference leaves "not shown": a paused endpoint listed with another status, an
 * endpoint removed earlier answered 410, the `data` of events in a flat shape, and record times
 * as Unix seconds. Driven through n8n's HookContext, WebhookContext and PollContext (see
 * test/engine/triggers.js).
 */
const {
	createWorkflow,
	runWebhookMethod,
	activate,
	deactivate,
	poll,
	collected,
	POLLING_TYPE,
} = require('../engine/triggers');
const {
	startSandbox,
	sandboxClient,
	createQrCode,
	endpoints,
	flushDeliveries,
} = require('../support/sandbox');
const { useSandbox, useReceiver, pollOverRounds } = require('./trigger-helpers');
const { logLines } = require('../engine/n8n-core');

const receiver = useReceiver();

/** A workflow with the webhook trigger on `events`, with `filters`. */
function webhookTrigger(sandbox, events, filters = {}) {
	const setup = createWorkflow({
		parameters: { endpointMode: 'automatic', events, filters },
		credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		webhookBaseUrl: receiver.current.webhookBaseUrl,
	});
	receiver.current.register(setup);
	return setup;
}
const stored = (setup) => setup.workflow.staticData[`node:${setup.node.name}`] ?? {};

async function settle(sandbox) {
	await flushDeliveries(sandbox);
	await receiver.current.settle();
}

describe('endpoint-status-values: a paused endpoint is listed as "disabled"', () => {
	const ctx = useSandbox(['endpoint-status-values']);

	test('checkExists says no, and activation replaces it with one that receives events', async () => {
		const setup = webhookTrigger(ctx.sandbox, ['qr_code.created']);
		await activate(setup);
		const pausedId = stored(setup).endpointId;
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(true);

		await ctx.sandbox.control('POST', `/webhooks/${pausedId}/pause`);
		const listed = await sandboxClient(ctx.sandbox).request('GET', '/webhooks');
		expect(listed.body.data).toEqual([
			expect.objectContaining({ id: pausedId, status: 'disabled' }),
		]);

		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		await activate(setup);
		const live = await endpoints(ctx.sandbox);
		expect(live).toHaveLength(1);
		expect(live[0]).toMatchObject({ status: 'active' });
		expect(live[0].id).not.toBe(pausedId);

		const code = await createQrCode(ctx.sandbox, 'after replacement');
		await settle(ctx.sandbox);
		expect(collected.map((item) => item.data.id)).toEqual([code.id]);
		await deactivate(setup);
	});
});

describe.each([[['gone-410']], [['gone-410', 'error-object']]])(
	'%j: an endpoint already removed at the service answers 410',
	(readings) => {
		const ctx = useSandbox(readings);

		test('deactivation counts it as removed: no warning, and its id is forgotten', async () => {
			const setup = webhookTrigger(ctx.sandbox, ['qr_code.created']);
			await activate(setup);
			const id = stored(setup).endpointId;
			await sandboxClient(ctx.sandbox).request('DELETE', `/webhooks/${id}`);
			expect((await sandboxClient(ctx.sandbox).request('DELETE', `/webhooks/${id}`)).status).toBe(
				410,
			);

			logLines.length = 0;
			expect(await deactivate(setup)).toBe(true);
			expect(logLines.filter((line) => line.level === 'warn')).toEqual([]);
			// Gone while active: the next activation catches up from the registration.
			const { seenAt } = stored(setup);
			expect(stored(setup)).toEqual({ retiredAt: expect.any(Number), seenAt, missedSince: seenAt });
		});
	},
);

describe('event-data-flat: lead.created is the lead, scan.created carries qr_code_id', () => {
	const ctx = useSandbox(['event-data-flat']);
	const events = ['lead.created', 'scan.created'];

	async function deliver(filters) {
		const wanted = await createQrCode(ctx.sandbox, 'wanted');
		const other = await createQrCode(ctx.sandbox, 'other');
		const setup = webhookTrigger(ctx.sandbox, events, filters);
		await activate(setup);
		await ctx.sandbox.control('POST', '/scans', { qr_code_id: other.id });
		await ctx.sandbox.control('POST', '/scans', { qr_code_id: wanted.id });
		await ctx.sandbox.control('POST', '/leads', { name: 'Ada' });
		await settle(ctx.sandbox);
		await deactivate(setup);
		const received = collected.map((item) => [
			item.type,
			item.type === 'scan.created' ? item.data.qr_code_id : item.data.card_id,
		]);
		return { wanted, other, received };
	}

	test('filters off: every delivery starts the workflow, in the flat shape', async () => {
		const { wanted, other, received } = await deliver({});
		expect(received).toEqual(
			expect.arrayContaining([
				['scan.created', other.id],
				['scan.created', wanted.id],
				['lead.created', ctx.sandbox.cardId],
			]),
		);
		expect(received).toHaveLength(3);
		const lead = collected.find((item) => item.type === 'lead.created').data;
		expect(lead).toMatchObject({ name: 'Ada', card_id: ctx.sandbox.cardId });
		expect(lead).not.toHaveProperty('card');
		expect(collected.find((item) => item.type === 'scan.created').data).not.toHaveProperty(
			'qr_code',
		);
	});

	test('filters on other ids: nothing starts the workflow', async () => {
		const { received } = await deliver({ qrCodeIds: 'AAAAAAAAAAAA', cardIds: 'ZZZZZZZZZZZZ' });
		expect(received).toEqual([]);
	});

	test('filters on the codes and the card given: those pass, others not', async () => {
		// The ids are only known once the codes exist: create them first, then filter on them.
		const wanted = await createQrCode(ctx.sandbox, 'wanted');
		const other = await createQrCode(ctx.sandbox, 'other');
		const setup = webhookTrigger(ctx.sandbox, events, {
			qrCodeIds: wanted.id,
			cardIds: ctx.sandbox.cardId,
		});
		await activate(setup);
		await ctx.sandbox.control('POST', '/scans', { qr_code_id: other.id });
		await ctx.sandbox.control('POST', '/scans', { qr_code_id: wanted.id });
		await ctx.sandbox.control('POST', '/leads', { name: 'Ada' });
		await settle(ctx.sandbox);
		await deactivate(setup);
		expect(
			collected.map((item) => [
				item.type,
				item.type === 'scan.created' ? item.data.qr_code_id : item.data.card_id,
			]),
		).toEqual(
			expect.arrayContaining([
				['scan.created', wanted.id],
				['lead.created', ctx.sandbox.cardId],
			]),
		);
		expect(collected).toHaveLength(2);
	});
});

describe('timestamps-unix: created_at of leads and QR codes as Unix seconds', () => {
	describe.each([[['timestamps-unix']], [['timestamps-unix', 'since-ignored']]])(
		'%j',
		(readings) => {
			const ctx = useSandbox(readings);
			const advance = (seconds) => ctx.sandbox.control('POST', '/clock/advance', { seconds });
			const credentials = () => ({
				apiKey: ctx.sandbox.keys.readWrite,
				baseUrl: ctx.sandbox.baseUrl,
			});

			async function addLeads(n, prefix) {
				const leads = [];
				for (let i = 0; i < n; i++) {
					const { data } = await ctx.sandbox.control('POST', '/leads', { name: `${prefix} ${i}` });
					leads.push(data.id);
				}
				return leads;
			}
			async function addCodes(n, prefix) {
				const codes = [];
				for (let i = 0; i < n; i++)
					codes.push((await createQrCode(ctx.sandbox, `${prefix} ${i}`)).id);
				return codes;
			}

			const listPath = (event) =>
				event === 'newLead' ? `/cards/${ctx.sandbox.cardId}/leads` : '/qr-codes';

			test.each([
				['newLead', addLeads],
				['newQrCode', addCodes],
			])('%s: each new record exactly once across polls, never an old one', async (event, add) => {
				const old = await add(3, 'old');
				await advance(3600);
				old.push(...(await add(2, 'recent')));
				const setup = createWorkflow({
					type: POLLING_TYPE,
					parameters: { event, cardId: ctx.sandbox.cardId },
					credentials: credentials(),
				});
				expect(await poll(setup)).toBeNull();
				expect(await poll(setup)).toBeNull();

				const { added, emitted } = await pollOverRounds(ctx.sandbox, setup, add, (first, made) =>
					expect(first.sort()).toEqual([...made].sort()),
				);
				expect(emitted.sort()).toEqual([...added].sort());
				expect(emitted.some((id) => old.includes(id))).toBe(false);
				// The static data keeps its format: times in ms, as numbers.
				const { cursor } = setup.workflow.staticData[`node:${setup.node.name}`];
				expect(cursor.newestMs).toBeGreaterThan(1e12);
				// It reads the numbers: the newest time is the newest record's, and only the records
				// within the overlap window before it are kept (the last batch, a day after the others).
				const [newest] = (await sandboxClient(ctx.sandbox).request('GET', listPath(event))).body
					.data;
				expect(cursor.newestMs).toBe(newest.created_at * 1000);
				expect(cursor.recent.map(([id]) => id).sort()).toEqual(added.slice(-2).sort());
			});
		},
	);

	test('the answers indeed carry numbers', async () => {
		const sandbox = await startSandbox({ readings: ['timestamps-unix'] });
		try {
			const code = await createQrCode(sandbox, 'unix');
			expect(typeof code.created_at).toBe('number');
			const list = await sandboxClient(sandbox).request('GET', `/cards/${sandbox.cardId}/leads`);
			expect(list.status).toBe(200);
			await sandbox.control('POST', '/leads', { name: 'unix' });
			const leads = await sandboxClient(sandbox).request('GET', `/cards/${sandbox.cardId}/leads`);
			expect(typeof leads.body.data[0].created_at).toBe('number');
		} finally {
			await sandbox.close();
		}
	});
});
