'use strict';
// Dynamic QR Trigger against the sandbox: the webhook lifecycle through n8n's HookContext, and
// real signed deliveries from the sandbox's dispatcher received over HTTP and run through n8n's
// WebhookContext and WorkflowExecute (see test/engine/triggers.js).
const {
	createWorkflow,
	runWebhookMethod,
	activate,
	deactivate,
	useDeliveries,
	webhookUrlOf,
	logLines,
	collected,
} = require('../engine/triggers');
const { sandboxClient, createQrCode, endpoints, flushDeliveries } = require('../support/sandbox');
const { IN_FLIGHT_MS } = require('../../dist/nodes/DynamicQr/trigger/state');
const { KEPT_FOR_MS } = require('../../dist/nodes/DynamicQr/trigger/secret');
const { REFUSED_FOR_MS, REPORT_EVERY_MS } = require('../../dist/nodes/DynamicQr/trigger/refusals');
const { DynamicQrTrigger } = require('../../dist/nodes/DynamicQr/DynamicQrTrigger.node');
const { sign, randomSecret } = require('../support/sign');
const { isRecorded } = require('../support/delivery-record');
const { waitFor } = require('../../dev/wait-for');

const started = useDeliveries();
let sandbox;
let receiver;
beforeAll(() => ({ sandbox, receiver } = started));

function trigger(parameters = {}, overrides = {}) {
	const setup = createWorkflow({
		parameters: {
			endpointMode: 'automatic',
			events: ['qr_code.created', 'scan.created', 'lead.created'],
			filters: {},
			...parameters,
		},
		credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		webhookBaseUrl: receiver.webhookBaseUrl,
		...overrides,
	});
	receiver.register(setup);
	return setup;
}

function stored(setup) {
	return setup.workflow.staticData[`node:${setup.node.name}`] || {};
}

/**
 * As if IN_FLIGHT_MS had passed since the last deactivation: spares a test that re-activates at
 * once the wait that protects a new signing secret (tested on its own below).
 */
function afterInFlightWindow(setup) {
	if (stored(setup).retiredAt) stored(setup).retiredAt -= IN_FLIGHT_MS;
}

/** As if more than KEPT_FOR_MS had passed since the trigger last read its secret credential. */
function afterKeptSecret() {
	const realNow = Date.now.bind(Date);
	jest.spyOn(Date, 'now').mockImplementation(() => realNow() + KEPT_FOR_MS + 1);
}
afterEach(() => jest.restoreAllMocks());

/** POSTs a delivery straight to the node's webhook URL, as anyone on the network could. */
async function post(setup, { id, timestamp, body, signature, headers = {} }) {
	const raw = Buffer.from(body, 'utf8');
	const response = await fetch(webhookUrlOf(setup), {
		method: 'POST',
		headers: {
			'content-type': 'application/json',
			...(id === undefined ? {} : { 'webhook-id': id }),
			...(timestamp === undefined ? {} : { 'webhook-timestamp': String(timestamp) }),
			...(signature === undefined ? {} : { 'webhook-signature': signature }),
			...headers,
		},
		body: raw,
	});
	await receiver.settle();
	return { status: response.status, body: await response.text() };
}

function eventBody(
	id,
	type = 'scan.created',
	data = { qr_code: { id: 'AAAAAAAAAAAA', name: 'x', type: 'url' } },
) {
	return JSON.stringify({ id, type, created_at: new Date().toISOString(), data });
}

const now = () => Math.floor(Date.now() / 1000);

describe('webhook lifecycle', () => {
	test('activation registers one endpoint with the chosen events, keeps id and secret; checkExists then answers true', async () => {
		const setup = trigger({ events: ['scan.created', 'lead.created'] });
		expect(await activate(setup)).toEqual({ existed: false });
		const [endpoint, ...others] = await endpoints(sandbox);
		expect(others).toEqual([]);
		expect(endpoint).toMatchObject({ url: webhookUrlOf(setup), status: 'active' });
		expect([...endpoint.events].sort()).toEqual(['lead.created', 'scan.created']);
		expect(stored(setup).endpointId).toBe(endpoint.id);
		expect(stored(setup).secret).toMatch(/^whsec_/);
		expect(await activate(setup)).toEqual({ existed: true });
		expect(await endpoints(sandbox)).toHaveLength(1);
		expect(await deactivate(setup)).toBe(true);
		expect(await endpoints(sandbox)).toEqual([]);
		// The ledger keeps the registration: a delivery after a long silence is measured from it.
		expect(stored(setup)).toEqual({
			retiredAt: expect.any(Number),
			seenAt: expect.any(Number),
		});
	});

	test('100 activate/deactivate cycles leave zero endpoints at the service', async () => {
		const setup = trigger();
		const ids = new Set();
		for (let cycle = 0; cycle < 100; cycle++) {
			setup.node.parameters.events =
				cycle % 3 === 0 ? ['scan.created'] : ['qr_code.created', 'lead.created'];
			afterInFlightWindow(setup);
			await activate(setup);
			const live = await endpoints(sandbox);
			expect(live).toHaveLength(1);
			ids.add(live[0].id);
			expect(await deactivate(setup)).toBe(true);
		}
		expect(ids.size).toBe(100);
		expect(await endpoints(sandbox)).toEqual([]);
		expect(logLines.filter((line) => line.level === 'warn')).toEqual([]);
	});

	test('a new secret is stored only after deliveries of the retired endpoint can no longer be saving theirs', async () => {
		const setup = trigger({ events: ['scan.created'] });
		let started = Date.now();
		await activate(setup);
		// A first activation has nothing to wait for.
		expect(Date.now() - started).toBeLessThan(IN_FLIGHT_MS);
		const oldSecret = stored(setup).secret;
		await deactivate(setup);
		started = Date.now();
		await activate(setup);
		expect(Date.now() - started).toBeGreaterThanOrEqual(IN_FLIGHT_MS - 50);
		expect(stored(setup).secret).toMatch(/^whsec_/);
		expect(stored(setup).secret).not.toBe(oldSecret);
		expect(stored(setup).retiredAt).toBeUndefined();
		await deactivate(setup);
	});

	test('re-activation after the endpoint was deleted remotely recovers, and deliveries flow again', async () => {
		const setup = trigger({ events: ['qr_code.created'] });
		await activate(setup);
		const first = stored(setup).endpointId;
		expect((await sandboxClient(sandbox).request('DELETE', `/webhooks/${first}`)).status).toBe(204);

		const listed = await endpoints(sandbox);
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		expect(await endpoints(sandbox)).toEqual(listed); // checkExists never deletes or creates

		await activate(setup);
		const [endpoint] = await endpoints(sandbox);
		expect(endpoint.id).not.toBe(first);
		expect(stored(setup).endpointId).toBe(endpoint.id);

		const code = await createQrCode(sandbox, 'after recovery');
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.map((item) => item.data.id)).toEqual([code.id]);
		await deactivate(setup);
		expect(await endpoints(sandbox)).toEqual([]);
	});

	test('a remote endpoint paused after 20 failed events is replaced on activation', async () => {
		const setup = trigger({ events: ['qr_code.created'] });
		await activate(setup);
		const pausedId = stored(setup).endpointId;
		receiver.failAll(500);
		for (let i = 0; i < 20; i++) await createQrCode(sandbox, `failing ${i}`);
		await flushDeliveries(sandbox, 10 * 60 * 60); // the whole retry schedule
		receiver.failAll(null);
		expect((await endpoints(sandbox))[0]).toMatchObject({ id: pausedId, status: 'paused' });

		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		expect((await endpoints(sandbox)).map((e) => e.id)).toEqual([pausedId]); // not deleted by checkExists
		await activate(setup);
		const live = await endpoints(sandbox);
		expect(live).toHaveLength(1);
		expect(live[0].id).not.toBe(pausedId);
		expect(live[0].status).toBe('active');

		// The 20 codes it missed are caught up (test/trigger/catchUp.test.js), then it receives.
		await waitFor(() => collected.length === 20, { what: 'the catch-up', timeoutMs: 20000 });
		const code = await createQrCode(sandbox, 'after replacement');
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.slice(20).map((item) => item.data.id)).toEqual([code.id]);
		await deactivate(setup);
		expect(await endpoints(sandbox)).toEqual([]);
	});

	test('a remote endpoint with other events is replaced', async () => {
		const setup = trigger({ events: ['scan.created'] });
		await activate(setup);
		const old = stored(setup).endpointId;
		setup.node.parameters.events = ['scan.created', 'qr_code.deleted'];
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		await activate(setup);
		const live = await endpoints(sandbox);
		expect(live).toHaveLength(1);
		expect(live[0].id).not.toBe(old);
		expect([...live[0].events].sort()).toEqual(['qr_code.deleted', 'scan.created']);
		await deactivate(setup);
	});

	test('checkExists finds the endpoint across pages', async () => {
		const setup = trigger({ events: ['scan.created'] });
		await activate(setup);
		for (let i = 0; i < 130; i++) {
			const answer = await sandboxClient(sandbox).request('POST', '/webhooks', {
				url: `https://other.example.com/hook/${i}`,
				events: ['scan.created'],
			});
			expect(answer.status).toBe(201);
		}
		// the list is newest first: ours is now on page 2 of 100
		const page1 = await sandboxClient(sandbox).request('GET', '/webhooks?per_page=100');
		expect(page1.body.data.map((e) => e.id)).not.toContain(stored(setup).endpointId);
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(true);
		expect(await deactivate(setup)).toBe(true);
		expect(await endpoints(sandbox, webhookUrlOf(setup))).toEqual([]);
		expect(await endpoints(sandbox)).toHaveLength(130); // other endpoints untouched
	});

	test('delete treats 404 as done', async () => {
		const setup = trigger();
		await activate(setup);
		await sandboxClient(sandbox).request('DELETE', `/webhooks/${stored(setup).endpointId}`);
		expect(await deactivate(setup)).toBe(true);
		expect(logLines.filter((line) => line.level === 'warn')).toEqual([]);
		// Gone at the service while active: the next activation catches up from the registration.
		const { seenAt } = stored(setup);
		expect(stored(setup)).toEqual({ retiredAt: expect.any(Number), seenAt, missedSince: seenAt });
	});

	test('delete logs what it could not do; the next activation removes the leftover', async () => {
		const setup = trigger();
		await activate(setup);
		const id = stored(setup).endpointId;
		const secret = stored(setup).secret;
		setup.additionalData.credentialsHelper.getDecrypted = async () => ({
			apiKey: sandbox.keys.readOnly,
			baseUrl: sandbox.baseUrl,
		});
		expect(await deactivate(setup)).toBe(false);
		const warnings = logLines.filter((line) => line.level === 'warn').map((line) => line.message);
		expect(warnings.some((message) => message.includes(id) && /403|read-only/.test(message))).toBe(
			true,
		);
		expect(warnings.join('\n')).not.toContain(secret);
		// The id is kept, so that the next activation removes it.
		expect(stored(setup)).toEqual({
			endpointId: id,
			retiredAt: expect.any(Number),
			seenAt: expect.any(Number),
		});
		expect(await endpoints(sandbox)).toHaveLength(1);

		setup.additionalData.credentialsHelper.getDecrypted = async () => ({
			apiKey: sandbox.keys.readWrite,
			baseUrl: sandbox.baseUrl,
		});
		await activate(setup);
		const live = await endpoints(sandbox);
		expect(live).toHaveLength(1);
		expect(live[0].id).not.toBe(id);
		await deactivate(setup);
		expect(await endpoints(sandbox)).toEqual([]);
	});

	test('an endpoint at this URL registered without a secret this node holds is replaced', async () => {
		const setup = trigger({ events: ['scan.created'] });
		const stray = await sandboxClient(sandbox).request('POST', '/webhooks', {
			url: webhookUrlOf(setup),
			events: ['scan.created'],
		});
		expect(await runWebhookMethod(setup, 'checkExists')).toBe(false);
		await activate(setup);
		const live = await endpoints(sandbox);
		expect(live.map((e) => e.id)).toEqual([stored(setup).endpointId]);
		expect(live[0].id).not.toBe(stray.body.data.id);
		await deactivate(setup);
		expect(await endpoints(sandbox)).toEqual([]);
	});

	test('no event chosen: activation fails before registering anything', async () => {
		const setup = trigger({ events: [] });
		await expect(activate(setup)).rejects.toThrow('No event is selected');
		expect(await endpoints(sandbox)).toEqual([]);
	});

	test('a local or plain-HTTP webhook URL with a public API host fails with an explanation', async () => {
		for (const webhookBaseUrl of [
			'http://localhost:5678/webhook',
			'https://192.168.1.20/webhook',
			'http://n8n.example.com/webhook',
			// IPv4-mapped IPv6, which URL writes in hex: [::ffff:7f00:1] and [::ffff:c0a8:114].
			'http://[::ffff:127.0.0.1]:5678/webhook',
			'https://[::ffff:192.168.1.20]/webhook',
		]) {
			const setup = createWorkflow({
				parameters: { endpointMode: 'automatic', events: ['scan.created'], filters: {} },
				credentials: { apiKey: 'api_x', baseUrl: 'https://qr.example.com/api/v1' },
				webhookBaseUrl,
			});
			const error = await activate(setup).then(
				() => undefined,
				(e) => e,
			);
			expect(error).toBeDefined();
			expect(error.message).toMatch(/cannot deliver events to this n8n/);
			expect(error.description).toMatch(/WEBHOOK_URL/);
			expect(error.description).toMatch(/Dynamic QR Polling Trigger/);
		}
	});
});

describe('deliveries', () => {
	test('a delivery signed by the sandbox starts the workflow with one item per event', async () => {
		const setup = trigger();
		await activate(setup);
		const code = await createQrCode(sandbox, 'delivered');
		await sandbox.control('POST', '/scans', { qr_code_id: code.id, country: 'DE' });
		await sandbox.control('POST', '/leads', { name: 'Ada', email: 'ada@example.com' });
		await flushDeliveries(sandbox);
		await receiver.settle();

		expect(receiver.executions).toHaveLength(3);
		for (const execution of receiver.executions) {
			const runData = execution.run.data.resultData.runData;
			expect(Object.keys(runData).sort()).toEqual(['Collect', 'Dynamic QR Trigger']);
			expect(execution.run.data.resultData.error).toBeUndefined();
		}
		expect(collected.map((item) => item.type).sort()).toEqual([
			'lead.created',
			'qr_code.created',
			'scan.created',
		]);
		const deliveries = (await sandbox.control('GET', '/deliveries')).data;
		expect(deliveries.every((delivery) => delivery.status === 'succeeded')).toBe(true);
		for (const item of collected) {
			expect(Object.keys(item).sort()).toEqual([
				'created_at',
				'data',
				'event_key',
				'id',
				'type',
				'webhook_id',
				'webhook_timestamp',
			]);
			expect(item.webhook_id).toBe(item.id);
			expect(item.id).toMatch(/^evt_/);
			expect(Number.isInteger(item.webhook_timestamp)).toBe(true);
			expect(deliveries.map((d) => d.event_id)).toContain(item.id);
		}
		const scan = collected.find((item) => item.type === 'scan.created');
		expect(scan.data.qr_code.id).toBe(code.id);
		expect(scan.data.country).toBe('DE');
		const lead = collected.find((item) => item.type === 'lead.created');
		expect(lead.data.lead.email).toBe('ada@example.com');
		// A lead and a new code by their record (as a catch-up and the polling trigger key them),
		// a scan by its event.
		const created = collected.find((item) => item.type === 'qr_code.created');
		expect(created.event_key).toBe(`qr_code.created:${code.id}`);
		expect(lead.event_key).toBe(`lead.created:${lead.data.lead.id}`);
		expect(scan.event_key).toBe(scan.webhook_id);
		expect(lead.data.card.id).toBe(sandbox.cardId);
		expect(JSON.stringify(receiver.executions.map((e) => e.run.data))).not.toContain(
			stored(setup).secret,
		);
		await deactivate(setup);
	});

	test('a sandbox retry after a failed attempt starts the workflow once', async () => {
		const setup = trigger({ events: ['qr_code.created'] });
		await activate(setup);
		receiver.failAll(503);
		await createQrCode(sandbox, 'retried');
		await flushDeliveries(sandbox);
		receiver.failAll(null);
		await flushDeliveries(sandbox, 61);
		await receiver.settle();
		const [delivery] = (await sandbox.control('GET', '/deliveries')).data;
		expect(delivery.attempts.map((a) => a.status_code)).toEqual([503, 200]);
		expect(receiver.executions).toHaveLength(1);
		await deactivate(setup);
	});

	test('a delivery whose execution n8n could not start is started by the retry, once', async () => {
		const setup = trigger({ events: ['qr_code.created'] });
		await activate(setup);
		receiver.failStarts(500);
		await createQrCode(sandbox, 'not started');
		await flushDeliveries(sandbox);
		await receiver.settle();
		receiver.failStarts(null);
		await flushDeliveries(sandbox, 61);
		await receiver.settle();
		const [delivery] = (await sandbox.control('GET', '/deliveries')).data;
		expect(delivery.attempts.map((a) => a.status_code)).toEqual([500, 200]);
		expect(receiver.executions).toHaveLength(1);
		// Started now, so a resend is a repeat.
		const resend = await sandbox.control('POST', `/deliveries/${delivery.id}/resend`);
		expect(resend.data.attempt.status_code).toBe(200);
		await receiver.settle();
		expect(receiver.executions).toHaveLength(1);
		expect(receiver.answers.at(-1)).toMatchObject({ status: 200, started: false });
		await deactivate(setup);
	});

	test('once quiet after starting workflows, the trigger sends its own n8n process a signed resync that starts nothing and writes back ids another save dropped', async () => {
		const setup = trigger({ events: ['scan.created'] });
		await activate(setup);
		const code = await createQrCode(sandbox, 'resynced');
		for (let index = 0; index < 3; index += 1) {
			await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		}
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(receiver.executions).toHaveLength(3);
		const ids = (await sandbox.control('GET', '/deliveries')).data.map((d) => d.event_id);
		// Another webhook processor's save, from a copy loaded before these deliveries, dropped them.
		stored(setup).deliveries = '';
		// (A resync of an earlier test's trigger may arrive meanwhile: only this one's count.)
		const path = new URL(webhookUrlOf(setup)).pathname;
		const ours = () => receiver.resyncs.filter((resync) => resync.path === path);
		await waitFor(() => (ours().length > 0 ? true : null), {
			what: 'a resync of the delivery record',
			timeoutMs: 5000,
			intervalMs: 50,
		});
		await receiver.settle();
		// Signed with the trigger's own secret (not refused), answered without starting anything.
		expect(ours()[0]).toMatchObject({ status: 200, started: false });
		expect(receiver.executions).toHaveLength(3);
		for (const id of ids) expect(isRecorded(stored(setup), id, Date.now())).toBe(true);
		// A save from a copy loaded before the resync, landing after its rounds wrote nothing more
		// (a processor under load): the last round, ten seconds on, writes them back once again.
		await waitFor(() => (ours().length > 1 ? true : null), {
			what: 'a resync round that finds nothing to write',
			timeoutMs: 5000,
			intervalMs: 50,
		});
		stored(setup).deliveries = '';
		await waitFor(
			() => (ids.every((id) => isRecorded(stored(setup), id, Date.now())) ? true : null),
			{ what: 'the last resync round writing the ids back', timeoutMs: 15000, intervalMs: 250 },
		);
		expect(receiver.executions).toHaveLength(3);
		// A forged resync is refused like any forged delivery.
		const forged = await post(setup, {
			id: 'resync_forged',
			timestamp: now(),
			body: JSON.stringify({ type: 'n8n-nodes-dynamic-qr.resync', round: 1 }),
			signature: 'v1,AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=',
		});
		expect(forged.status).toBe(401);
		await deactivate(setup);
	});

	test('forged, tampered, replayed and unsigned deliveries answer 401 and start nothing', async () => {
		const setup = trigger();
		await activate(setup);
		const secret = stored(setup).secret;
		const otherSecret = 'whsec_' + Buffer.alloc(24, 7).toString('base64');
		const id = 'evt_forgeryattempt0001';
		const body = eventBody(id);
		const t = now();
		const cases = [
			{ id, timestamp: t, body, signature: sign(otherSecret, id, t, body) }, // wrong secret
			{
				id,
				timestamp: t,
				body: body.replace('scan', 'lead'),
				signature: sign(secret, id, t, body),
			}, // tampered body
			{ id: id + 'x', timestamp: t, body, signature: sign(secret, id, t, body) }, // other id
			{ id, timestamp: t - 400, body, signature: sign(secret, id, t - 400, body) }, // replayed, too old
			{ id, timestamp: t + 400, body, signature: sign(secret, id, t + 400, body) }, // from the future
			{ id, timestamp: t, body }, // unsigned
			{ timestamp: t, body, signature: sign(secret, id, t, body) }, // no id
			{ id, timestamp: t, body, signature: 'v2,' + sign(secret, id, t, body).slice(3) }, // unknown version only
			{
				id,
				timestamp: t,
				body: JSON.stringify(JSON.parse(body), null, 1),
				signature: sign(secret, id, t, body),
			}, // re-serialised
		];
		for (const delivery of cases) {
			const answer = await post(setup, delivery);
			expect(answer.status).toBe(401);
			expect(answer.body).not.toContain(secret.slice(6));
		}
		expect(receiver.executions).toEqual([]);
		expect(collected).toEqual([]);

		// the same delivery, correctly signed, starts the workflow: once
		const valid = { id, timestamp: t, body, signature: sign(secret, id, t, body) };
		expect((await post(setup, valid)).status).toBe(200);
		expect(receiver.executions).toHaveLength(1);
		const repeat = await post(setup, {
			...valid,
			timestamp: now(),
			signature: sign(secret, id, now(), body),
		});
		expect(repeat.status).toBe(200);
		expect(JSON.parse(repeat.body)).toMatchObject({ started: false, reason: 'duplicate delivery' });
		expect(receiver.executions).toHaveLength(1);

		// secret rotation: several signatures, one of them ours
		const id2 = 'evt_rotated0000000002';
		const body2 = eventBody(id2);
		const signatures = [sign(otherSecret, id2, t, body2), sign(secret, id2, t, body2)].join(' ');
		expect(
			(await post(setup, { id: id2, timestamp: t, body: body2, signature: signatures })).status,
		).toBe(200);
		expect(receiver.executions).toHaveLength(2);
		expect(logLines.map((l) => l.message).join('\n')).not.toContain(secret);
		await deactivate(setup);
	});

	test('with no stored secret the trigger fails closed', async () => {
		const setup = trigger();
		const id = 'evt_nosecret000000001';
		const body = eventBody(id);
		const guessed = 'whsec_' + Buffer.alloc(24).toString('base64');
		for (const signature of [sign(guessed, id, now(), body), undefined]) {
			expect((await post(setup, { id, timestamp: now(), body, signature })).status).toBe(401);
		}
		setup.workflow.staticData[`node:${setup.node.name}`] = { secret: '' };
		expect(
			(await post(setup, { id, timestamp: now(), body, signature: sign(guessed, id, now(), body) }))
				.status,
		).toBe(401);
		expect(receiver.executions).toEqual([]);
		expect(logLines.some((l) => l.level === 'warn' && /no signing secret/.test(l.message))).toBe(
			true,
		);
	});

	test('filters: deliveries for other QR codes and cards are answered 200 without starting', async () => {
		const wanted = await createQrCode(sandbox, 'wanted');
		const other = await createQrCode(sandbox, 'other');
		const setup = trigger({
			events: ['scan.created', 'lead.created', 'qr_code.updated'],
			filters: { qrCodeIds: ` ${wanted.id}, AAAAAAAAAAAA `, cardIds: 'ZZZZZZZZZZZZ' },
		});
		await activate(setup);
		await sandbox.control('POST', '/scans', { qr_code_id: other.id });
		await sandbox.control('POST', '/leads', { name: 'filtered out' });
		await sandbox.control('POST', '/scans', { qr_code_id: wanted.id });
		await sandboxClient(sandbox).request('PATCH', `/qr-codes/${other.id}`, { name: 'renamed' });
		await sandboxClient(sandbox).request('PATCH', `/qr-codes/${wanted.id}`, {
			name: 'renamed too',
		});
		await flushDeliveries(sandbox);
		await receiver.settle();

		const deliveries = (await sandbox.control('GET', '/deliveries')).data;
		expect(deliveries).toHaveLength(5);
		expect(deliveries.every((d) => d.status === 'succeeded')).toBe(true); // all answered 2xx
		expect(receiver.answers.filter((a) => a.started === false && a.status === 200)).toHaveLength(3);
		expect(
			collected.map((item) => [
				item.type,
				item.type === 'scan.created' ? item.data.qr_code.id : item.data.id,
			]),
		).toEqual(
			expect.arrayContaining([
				['scan.created', wanted.id],
				['qr_code.updated', wanted.id],
			]),
		);
		expect(collected).toHaveLength(2);
		await deactivate(setup);
	});

	test('two updates of one code are two events with keys of their own: their webhook-ids', async () => {
		const code = await createQrCode(sandbox, 'changed twice');
		const setup = trigger({ events: ['qr_code.updated'] });
		await activate(setup);
		for (const name of ['first change', 'second change'])
			await sandboxClient(sandbox).request('PATCH', `/qr-codes/${code.id}`, { name });
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.map((item) => [item.data.id, item.data.name])).toEqual([
			[code.id, 'first change'],
			[code.id, 'second change'],
		]);
		expect(collected.map((item) => item.event_key)).toEqual(
			collected.map((item) => item.webhook_id),
		);
		expect(new Set(collected.map((item) => item.event_key)).size).toBe(2);
		await deactivate(setup);
	});

	test('filters: a lead on a listed card starts the workflow', async () => {
		const setup = trigger({
			events: ['lead.created'],
			filters: { cardIds: sandbox.cardId, qrCodeIds: 'AAAAAAAAAAAA' },
		});
		await activate(setup);
		await sandbox.control('POST', '/leads', { name: 'kept' });
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.map((item) => item.data.lead.name)).toEqual(['kept']);
		await deactivate(setup);
	});

	test('an event type not chosen is answered 200 without starting', async () => {
		const setup = trigger({ events: ['scan.created'] });
		await activate(setup);
		const secret = stored(setup).secret;
		const id = 'evt_notchosen00000001';
		const body = eventBody(id, 'lead.created', { card: { id: 'x' }, lead: {} });
		const answer = await post(setup, {
			id,
			timestamp: now(),
			body,
			signature: sign(secret, id, now(), body),
		});
		expect(answer.status).toBe(200);
		expect(JSON.parse(answer.body)).toMatchObject({ started: false });
		expect(receiver.executions).toEqual([]);
		await deactivate(setup);
	});
});

describe('endpoint created in the dashboard', () => {
	test('activation refuses a malformed pasted secret or no event', async () => {
		for (const signingSecret of ['', 'whsec_', 'whsec_not base64!', 'secret']) {
			const setup = trigger(
				{ endpointMode: 'dashboard', signingSecret, events: ['scan.created'] },
				{ credentials: null },
			);
			await expect(activate(setup)).rejects.toThrow(
				'The signing secret in the Signing Secret parameter is missing or not a valid signing secret',
			);
		}
		const noEvents = trigger(
			{
				endpointMode: 'dashboard',
				signingSecret: 'whsec_' + Buffer.alloc(24, 3).toString('base64'),
				events: [],
			},
			{ credentials: null },
		);
		await expect(activate(noEvents)).rejects.toThrow('No event is selected');
	});

	test('version 2 verifies with the secret of its credential; a malformed one fails activation, and the Test button says so', async () => {
		const setup = trigger(
			{ endpointMode: 'dashboard', events: ['scan.created'] },
			{
				typeVersion: 2,
				credentialType: 'dynamicQrSigningSecretApi',
				credentials: { signingSecret: '' },
			},
		);
		const created = await sandboxClient(sandbox).request('POST', '/webhooks', {
			url: webhookUrlOf(setup),
			events: ['scan.created'],
		});
		const secret = created.body.data.secret;
		const useSecret = (value) => {
			setup.additionalData.credentialsHelper.getDecrypted = async () => ({ signingSecret: value });
		};
		useSecret(`  ${secret}\n`); // as pasted
		expect(await activate(setup)).toEqual({ existed: true });

		const code = await createQrCode(sandbox, 'dashboard v2');
		await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.map((item) => item.type)).toEqual(['scan.created']);

		// Once the secret read for the last delivery is no longer kept, the wrong one is used.
		useSecret('whsec_' + Buffer.alloc(24, 1).toString('base64'));
		afterKeptSecret();
		await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected).toHaveLength(1);
		expect(receiver.answers.filter((answer) => answer.status === 401)).toHaveLength(1);

		useSecret('not-a-secret');
		await expect(activate(setup)).rejects.toThrow(
			'The signing secret in the Dynamic QR Webhook Signing Secret credential is missing or not a valid signing secret',
		);
		const { signingSecretFormat } = new DynamicQrTrigger().getNodeType(2).methods.credentialTest;
		expect(await signingSecretFormat.call({}, { data: { signingSecret: secret } })).toEqual({
			status: 'OK',
			message: 'The signing secret is well-formed',
		});
		expect(
			(await signingSecretFormat.call({}, { data: { signingSecret: 'whsec_x' } })).status,
		).toBe('Error');
		expect(logLines.map((line) => line.message).join('\n')).not.toContain(secret);
	});

	test('version 2 reads its credential once for deliveries seconds apart, and again when a delivery does not verify with the kept secret', async () => {
		let reads = 0;
		let current = randomSecret();
		const setup = trigger(
			{ endpointMode: 'dashboard', events: ['scan.created'] },
			{
				typeVersion: 2,
				credentialType: 'dynamicQrSigningSecretApi',
				credentials: { signingSecret: '' },
			},
		);
		setup.additionalData.credentialsHelper.getDecrypted = async () => {
			reads++;
			return { signingSecret: current };
		};
		expect(await activate(setup)).toEqual({ existed: true });
		let deliveries = 0;
		const deliver = async (secret) => {
			const id = `evt_kept${String(++deliveries).padStart(12, '0')}`;
			const body = eventBody(id);
			const t = now();
			return (await post(setup, { id, timestamp: t, body, signature: sign(secret, id, t, body) }))
				.status;
		};

		const first = current;
		reads = 0;
		expect([await deliver(first), await deliver(first), await deliver(first)]).toEqual([
			200, 200, 200,
		]);
		expect(reads).toBe(1);

		// Changed in n8n and at the service together: the first new signature reads it again.
		current = randomSecret();
		expect(await deliver(current)).toBe(200);
		expect(reads).toBe(2);
		expect(await deliver(first)).toBe(401); // the old secret, read again: still refused
		expect(reads).toBe(3);

		// Changed in n8n only: the kept secret verifies for at most KEPT_FOR_MS after its read.
		const previous = current;
		current = randomSecret();
		expect(await deliver(previous)).toBe(200);
		afterKeptSecret();
		expect(await deliver(previous)).toBe(401);
		expect(collected).toHaveLength(5);
		expect(logLines.map((line) => line.message).join('\n')).not.toContain(previous);
	});

	test('verifies with the pasted secret; registers and removes nothing', async () => {
		const setup = trigger(
			{ endpointMode: 'dashboard', signingSecret: '', events: ['scan.created'] },
			{ credentials: null },
		);
		const created = await sandboxClient(sandbox).request('POST', '/webhooks', {
			url: webhookUrlOf(setup),
			events: ['scan.created'],
		});
		expect(created.status).toBe(201);
		setup.node.parameters.signingSecret = `  ${created.body.data.secret}\n`; // as pasted

		expect(await activate(setup)).toEqual({ existed: true });
		expect((await endpoints(sandbox)).map((e) => e.id)).toEqual([created.body.data.id]);

		const code = await createQrCode(sandbox, 'dashboard');
		await sandbox.control('POST', '/scans', { qr_code_id: code.id });
		await flushDeliveries(sandbox);
		await receiver.settle();
		expect(collected.map((item) => item.type)).toEqual(['scan.created']);

		// a wrong or empty pasted secret refuses deliveries
		for (const secret of ['whsec_' + Buffer.alloc(24, 1).toString('base64'), '']) {
			setup.node.parameters.signingSecret = secret;
			await sandbox.control('POST', '/scans', { qr_code_id: code.id });
			await flushDeliveries(sandbox);
			await receiver.settle();
		}
		expect(collected).toHaveLength(1);
		expect(receiver.answers.filter((a) => a.status === 401)).toHaveLength(2);

		expect(await deactivate(setup)).toBe(true);
		expect((await endpoints(sandbox)).map((e) => e.id)).toEqual([created.body.data.id]); // left alone
		expect(logLines.map((l) => l.message).join('\n')).not.toContain(created.body.data.secret);
	});
});

describe('refused deliveries are seen', () => {
	const forged = (index, timestamp = now()) => {
		const id = `evt_forged${String(index).padStart(12, '0')}`;
		const body = eventBody(id);
		return { id, timestamp, body, signature: sign(randomSecret(), id, timestamp, body) };
	};

	test("in the editor's Listen for Test Event, each refusal ends the wait with an error naming the cause and the fix", async () => {
		const setup = trigger();
		await activate(setup, { mode: 'manual', activation: 'manual', isTest: true });
		setup.webhookMode = 'manual';
		const secret = stored(setup).secret;
		const id = 'evt_listened00000001';
		const body = eventBody(id);
		const old = now() - 400;
		const cases = [
			[forged(1), /no v1 signature/, /signed for another endpoint/],
			[forged(2), /no v1 signature/, /signed for another endpoint/],
			[
				{ id, timestamp: old, body, signature: sign(secret, id, old, body) },
				/more than 300 seconds old/,
				/clock/,
			],
			[{ id, timestamp: now(), body }, /header is missing/, /signed deliveries/],
		];
		for (const [delivery, cause, fix] of cases) {
			expect((await post(setup, delivery)).status).toBe(500);
			const { error, description } = receiver.answers.at(-1);
			expect(error).toMatch(cause);
			expect(description).toMatch(fix);
			expect(`${error} ${description}`).not.toContain(secret.slice(6));
		}
		expect(receiver.executions).toEqual([]);
	});

	/** `ms` more have passed for n8n (and for the signatures made from here on). */
	let aheadMs = 0;
	afterEach(() => (aheadMs = 0));
	const later = (ms) => {
		if (aheadMs === 0) {
			const realNow = Date.now.bind(Date);
			jest.spyOn(Date, 'now').mockImplementation(() => realNow() + aheadMs);
		}
		aheadMs += ms;
	};
	const statusesOf = async (setup, from, count) => {
		const statuses = [];
		for (let index = from; index < from + count; index++)
			statuses.push((await post(setup, forged(index))).status);
		return statuses;
	};

	test('in production, 600 forged signed requests fail one run once refusals last 20 s, then one per 10 minutes, and write no static data; unsigned ones fail none', async () => {
		const setup = trigger();
		await activate(setup);
		const before = JSON.stringify(setup.workflow.staticData);
		// Refused for less than REFUSED_FOR_MS: a moment's, answered 401 only.
		expect(new Set(await statusesOf(setup, 0, 300))).toEqual(new Set([401]));
		later(REFUSED_FOR_MS);
		const statuses = await statusesOf(setup, 300, 300);
		for (let index = 0; index < 100; index++) {
			const { id, timestamp, body } = forged(1000 + index);
			statuses.push((await post(setup, { id, timestamp, body })).status);
		}
		expect(statuses[0]).toBe(500);
		expect(statuses.slice(1).filter((status) => status !== 401)).toEqual([]);
		expect(receiver.answers.find((answer) => answer.status === 500)).toMatchObject({
			error: 'A delivery was refused: no v1 signature in webhook-signature matches the body',
			description: expect.stringContaining('deactivate and activate the workflow'),
		});
		expect(JSON.stringify(setup.workflow.staticData)).toBe(before);
		expect(receiver.executions).toEqual([]);

		// Ten minutes on, refused deliveries are seen again, once.
		later(REPORT_EVERY_MS);
		expect(await statusesOf(setup, 2000, 2)).toEqual([500, 401]);
		expect(JSON.stringify(setup.workflow.staticData)).toBe(before);
	});

	test('a delivery refused just before a verified one (as in the moment after a re-activation) reports nothing; refusals that go on do, whatever the trigger sends itself meanwhile', async () => {
		const setup = trigger();
		await activate(setup);
		expect(await statusesOf(setup, 0, 1)).toEqual([401]);
		const signed = (id, body = eventBody(id), t = now()) => ({
			id,
			timestamp: t,
			body,
			signature: sign(stored(setup).secret, id, t, body),
		});
		expect((await post(setup, signed('evt_verified000000001'))).status).toBe(200);
		later(REFUSED_FOR_MS);
		// The verified delivery ended the spell: this refusal starts a new one.
		expect(await statusesOf(setup, 1, 1)).toEqual([401]);
		// The trigger's own resync verifies too, but is no delivery of the service's.
		const resyncBody = JSON.stringify({ type: 'n8n-nodes-dynamic-qr.resync', round: 1 });
		expect((await post(setup, signed('resync_own', resyncBody))).status).toBe(200);
		later(REFUSED_FOR_MS);
		expect(await statusesOf(setup, 2, 1)).toEqual([500]);
		// A verified delivery between refusals does not shorten the 10 minutes between reports.
		expect((await post(setup, signed('evt_verified000000002'))).status).toBe(200);
		expect(await statusesOf(setup, 3, 1)).toEqual([401]);
		later(REFUSED_FOR_MS);
		expect(await statusesOf(setup, 4, 1)).toEqual([401]);
		later(REPORT_EVERY_MS);
		expect(await statusesOf(setup, 5, 1)).toEqual([500]);
	});

	test('a dashboard endpoint whose secret no longer matches: the error names the credential to fix, and a missing secret says so', async () => {
		const setup = trigger(
			{ endpointMode: 'dashboard', events: ['scan.created'] },
			{
				typeVersion: 2,
				credentialType: 'dynamicQrSigningSecretApi',
				credentials: { signingSecret: randomSecret() },
			},
		);
		expect(await activate(setup)).toEqual({ existed: true });
		await statusesOf(setup, 0, 1);
		later(REFUSED_FOR_MS);
		expect(await statusesOf(setup, 1, 1)).toEqual([500]);
		expect(receiver.answers.at(-1).description).toBe(
			"The secret in the Dynamic QR Webhook Signing Secret credential is not the one the service signs this endpoint's deliveries with: copy the endpoint's current signing secret (whsec_…) from the service's dashboard into it.",
		);

		setup.additionalData.credentialsHelper.getDecrypted = async () => ({ signingSecret: '' });
		setup.webhookMode = 'manual';
		expect(await statusesOf(setup, 2, 1)).toEqual([500]);
		expect(receiver.answers.at(-1)).toMatchObject({
			error: expect.stringContaining('the stored signing secret is missing'),
			description: expect.stringContaining('into the Dynamic QR Webhook Signing Secret credential'),
		});
	});
});
