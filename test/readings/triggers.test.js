'use strict';
/**
 * The webhook trigger and the polling trigger against the sandbox answering other readings of
 * what the API reference leaves "not shown": endpoint lists without `events`, the signing secret
 * placed elsewhere in the create answer, and `since` read as a date, as Unix seconds, or not at
 * all. Driven through n8n's HookContext, WebhookContext and PollContext (see
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
const { createQrCode, endpoints, flushDeliveries } = require('../support/sandbox');
const { useSandbox, useReceiver, pollOverRounds } = require('./trigger-helpers');
const { sandboxClient } = require('../../dev/sandbox/client');

const receiver = useReceiver();

describe('Dynamic QR Trigger', () => {
	/**
	 * A workflow with the webhook trigger; given `before`, the same workflow as a restarted n8n
	 * loads it: the same webhook id (so the same URL) and the static data it saved.
	 */
	function webhookTrigger(sandbox, before) {
		const setup = createWorkflow({
			parameters: { endpointMode: 'automatic', events: ['qr_code.created'], filters: {} },
			credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
			webhookBaseUrl: receiver.current.webhookBaseUrl,
			staticData: before && JSON.parse(JSON.stringify(before.workflow.staticData)),
		});
		if (before) setup.node.webhookId = before.node.webhookId;
		receiver.current.register(setup);
		return setup;
	}
	const stored = (setup) => setup.workflow.staticData[`node:${setup.node.name}`] ?? {};

	/** Creates a code and returns the ids of the codes the workflow received. */
	async function deliveredCodes(sandbox) {
		const code = await createQrCode(sandbox, 'delivered');
		await flushDeliveries(sandbox);
		await receiver.current.settle();
		return { code, received: collected.map((item) => item.data.id) };
	}

	describe('webhook-list-without-events', () => {
		const ctx = useSandbox(['webhook-list-without-events']);

		test('the list indeed carries no events', async () => {
			const setup = webhookTrigger(ctx.sandbox);
			await activate(setup);
			const [listed] = (await sandboxClient(ctx.sandbox).call('GET', '/webhooks')).data;
			expect(listed).toMatchObject({ id: stored(setup).endpointId });
			expect(listed).not.toHaveProperty('events');
			await deactivate(setup);
		});

		test('activate, then checkExists after a restart: the same endpoint and secret, deliveries verified', async () => {
			const first = webhookTrigger(ctx.sandbox);
			expect(await activate(first)).toEqual({ existed: false });
			const { endpointId, secret } = stored(first);
			expect(secret).toMatch(/^whsec_/);

			// n8n restarts: the workflow is loaded again with the static data it saved.
			const restarted = webhookTrigger(ctx.sandbox, first);
			expect(await runWebhookMethod(restarted, 'checkExists')).toBe(true);
			expect(await activate(restarted)).toEqual({ existed: true });
			expect(stored(restarted)).toMatchObject({ endpointId, secret });
			expect((await endpoints(ctx.sandbox)).map((endpoint) => endpoint.id)).toEqual([endpointId]);

			const { code, received } = await deliveredCodes(ctx.sandbox);
			expect(received).toEqual([code.id]);
			await deactivate(restarted);
			expect(await endpoints(ctx.sandbox)).toEqual([]);
		});

		test('other events chosen since: the endpoint is replaced', async () => {
			const first = webhookTrigger(ctx.sandbox);
			await activate(first);
			const { endpointId } = stored(first);
			const changed = webhookTrigger(ctx.sandbox, first);
			changed.node.parameters.events = ['scan.created'];
			expect(await runWebhookMethod(changed, 'checkExists')).toBe(false);
			await activate(changed);
			const [endpoint, ...others] = await endpoints(ctx.sandbox);
			expect(others).toEqual([]);
			expect(endpoint.id).not.toBe(endpointId);
			expect(endpoint.events).toEqual(['scan.created']);
			await deactivate(changed);
		});
	});

	describe.each(['secret-top-level', 'secret-named-signing-secret'])('%s', (reading) => {
		const ctx = useSandbox([reading]);

		test('activation finds the secret and deliveries are verified with it', async () => {
			const setup = webhookTrigger(ctx.sandbox);
			expect(await activate(setup)).toEqual({ existed: false });
			expect(stored(setup).secret).toMatch(/^whsec_/);
			const { code, received } = await deliveredCodes(ctx.sandbox);
			expect(received).toEqual([code.id]);
			await deactivate(setup);
		});
	});
});

describe('Dynamic QR Polling Trigger: new leads', () => {
	describe.each([
		['since-date-only', 1],
		['since-unix-seconds', 2],
		['since-ignored', 0],
	])('%s', (reading, refusals) => {
		const ctx = useSandbox([reading]);

		async function addLeads(n, prefix) {
			const leads = [];
			for (let i = 0; i < n; i++) {
				const { data } = await ctx.sandbox.control('POST', '/leads', { name: `${prefix} ${i}` });
				leads.push(data.id);
			}
			return leads;
		}
		const advance = (seconds) => ctx.sandbox.control('POST', '/clock/advance', { seconds });

		test('each new lead exactly once across several polls, never an old one', async () => {
			// Leads well before activation (outside the cursor's overlap window), and just before.
			const old = await addLeads(3, 'old');
			await advance(3600);
			old.push(...(await addLeads(2, 'recent')));
			const setup = createWorkflow({
				type: POLLING_TYPE,
				parameters: { event: 'newLead', cardId: ctx.sandbox.cardId },
				credentials: { apiKey: ctx.sandbox.keys.readWrite, baseUrl: ctx.sandbox.baseUrl },
			});
			expect(await poll(setup)).toBeNull();
			expect(await poll(setup)).toBeNull();

			const { added, emitted } = await pollOverRounds(ctx.sandbox, setup, addLeads, (first, made) =>
				expect(first).toEqual(made),
			);
			expect(emitted).toEqual(added);
			expect(emitted.some((id) => old.includes(id))).toBe(false);

			// The form of `since` that worked is kept: the service refused only the first tries.
			const leadRequests = (await ctx.sandbox.control('GET', '/requests')).data.filter(
				(request) => request.path.endsWith('/leads') && request.query.since !== undefined,
			);
			expect(leadRequests.filter((request) => request.status === 422)).toHaveLength(refusals);
			expect(leadRequests.length).toBeGreaterThan(10);
		});
	});

	describe('a service that refuses every form of since', () => {
		const ctx = useSandbox(['since-date-only', 'since-unix-seconds']);

		test('the poll fails naming the answer and what to do', async () => {
			await ctx.sandbox.control('POST', '/leads', { name: 'someone' });
			const setup = createWorkflow({
				type: POLLING_TYPE,
				parameters: { event: 'newLead', cardId: ctx.sandbox.cardId },
				credentials: { apiKey: ctx.sandbox.keys.readWrite, baseUrl: ctx.sandbox.baseUrl },
			});
			const failure = await poll(setup).catch((error) => error);
			expect(failure.message).toMatch(/refused "since" as an ISO 8601 time, as a date and as Unix/);
			expect(failure.message).toMatch(/422/);
			expect(failure.description).toMatch(/Dynamic QR Trigger with the lead.created event/);
		});
	});
});
