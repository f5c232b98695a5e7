'use strict';

const path = require('node:path');
const { execFile } = require('node:child_process');
const { promisify } = require('node:util');
const { Webhook } = require('standardwebhooks');
const { WebhookDispatcher, RETRY_DELAYS_MS } = require('../webhooks');
const { startRecorder } = require('../../http-recorder');

const START = Date.parse('2030-01-01T00:00:00.000Z');
const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;
const FULL_SCHEDULE = RETRY_DELAYS_MS.reduce((sum, delay) => sum + delay, 0);
const WORKSPACE = { id: 'wsPro0000001', ownerEmail: 'owner@sandbox.test' };
const OTHER_WORKSPACE = { id: 'wsBasic00001', ownerEmail: 'basic@sandbox.test' };
const SCAN = {
	qr_code: { id: 'Ab3dEf6hIj9k', name: 'Menü ☕', type: 'url' },
	city: 'Zürich',
	referrer: null,
};

// svix is ESM-only and jest on Node 20 cannot load it, so it verifies in a plain node process.
async function verifyWithSvix(secret, request) {
	const script = `
		let input = '';
		process.stdin.on('data', (chunk) => (input += chunk)).on('end', async () => {
			const { secret, body, headers } = JSON.parse(input);
			const { Webhook } = await import('svix');
			new Webhook(secret).verify(body, headers);
			process.stdout.write('verified');
		});`;
	const run = promisify(execFile)(process.execPath, ['-e', script], {
		cwd: path.resolve(__dirname, '../../..'),
	});
	run.child.stdin.end(JSON.stringify({ secret, body: request.rawBody, headers: request.headers }));
	return (await run).stdout;
}

describe('WebhookDispatcher', () => {
	let clock;
	let outbox;
	let receiver;
	let dispatcher;

	const advance = async (ms) => {
		clock.ms += ms;
		await dispatcher.runDue();
	};
	const subscribe = (events = ['scan.created'], workspace = WORKSPACE, urlPath = '/hook') =>
		dispatcher.createEndpoint(workspace, { url: receiver.urlFor(urlPath), events });
	const emitScan = async (workspace = WORKSPACE) => {
		const event = dispatcher.emit(workspace, 'scan.created', SCAN);
		await dispatcher.runDue();
		return event;
	};

	beforeEach(async () => {
		clock = { ms: START, now: () => clock.ms };
		outbox = [];
		receiver = await startRecorder();
		dispatcher = new WebhookDispatcher({ clock, outbox });
	});

	afterEach(async () => {
		dispatcher.close();
		await receiver.close();
	});

	describe('endpoints', () => {
		it('answers the secret only on create and keeps workspaces apart', () => {
			const first = subscribe(['scan.created', 'lead.created']);
			clock.ms += 1000;
			const second = subscribe(['qr_code.created']);
			expect(first).toEqual({
				id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
				object: 'webhook_endpoint',
				url: receiver.urlFor('/hook'),
				events: ['scan.created', 'lead.created'],
				status: 'active',
				created_at: '2030-01-01T00:00:00.000Z',
				secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
			});
			expect(Buffer.from(first.secret.slice('whsec_'.length), 'base64')).toHaveLength(24);

			const { secret, ...record } = first;
			expect(dispatcher.getEndpoint(WORKSPACE.id, first.id)).toEqual(record);
			expect(dispatcher.listEndpoints(WORKSPACE.id).map((endpoint) => endpoint.id)).toEqual([
				second.id,
				first.id,
			]);
			expect(dispatcher.getEndpoint(OTHER_WORKSPACE.id, first.id)).toBeUndefined();
			expect(dispatcher.listEndpoints(OTHER_WORKSPACE.id)).toEqual([]);
			expect(dispatcher.deleteEndpoint(OTHER_WORKSPACE.id, first.id)).toBe(false);
			expect(dispatcher.allEndpoints().every((endpoint) => !('secret' in endpoint))).toBe(true);
		});

		it('forgets everything on reset', async () => {
			subscribe();
			await emitScan();
			dispatcher.reset();
			expect(dispatcher.allEndpoints()).toEqual([]);
			expect(dispatcher.listDeliveries()).toEqual([]);
		});
	});

	describe('a delivery', () => {
		it('carries the envelope byte for byte with Standard Webhooks headers that verify', async () => {
			const { secret, id: endpointId } = subscribe();
			const event = await emitScan();

			expect(event).toEqual({
				id: expect.stringMatching(/^evt_/),
				type: 'scan.created',
				created_at: '2030-01-01T00:00:00.000Z',
				data: SCAN,
			});
			expect(receiver.records).toHaveLength(1);
			const [request] = receiver.records;
			expect(request.method).toBe('POST');
			expect(request.rawBody).toBe(JSON.stringify(event));
			expect(request.headers).toMatchObject({
				'content-type': 'application/json',
				'webhook-id': event.id,
				'webhook-signature': expect.stringMatching(/^v1,[A-Za-z0-9+/]+=*$/),
				'user-agent': expect.stringMatching(/sandbox/i),
			});
			expect(
				Math.abs(Number(request.headers['webhook-timestamp']) - Date.now() / 1000),
			).toBeLessThan(5);
			expect(new Webhook(secret).verify(request.rawBody, request.headers)).toEqual(event);
			expect(await verifyWithSvix(secret, request)).toBe('verified');
			expect(() => new Webhook(secret).verify(`${request.rawBody} `, request.headers)).toThrow();

			expect(dispatcher.listDeliveries({ endpointId })).toEqual([
				{
					id: expect.stringMatching(/^dlv_/),
					event_id: event.id,
					endpoint_id: endpointId,
					type: 'scan.created',
					status: 'succeeded',
					attempts: [
						{
							attempted_at: '2030-01-01T00:00:00.000Z',
							status_code: 200,
							error: null,
							duration_ms: expect.any(Number),
						},
					],
					next_attempt_at: null,
				},
			]);
		});

		it('goes only to active endpoints of the same workspace subscribed to the event', async () => {
			subscribe(['scan.created'], WORKSPACE, '/scans');
			subscribe(['lead.created'], WORKSPACE, '/leads');
			subscribe(['scan.created'], OTHER_WORKSPACE, '/other');
			await emitScan();
			dispatcher.emit(WORKSPACE, 'qr_code.created', { id: 'Ab3dEf6hIj9k' });
			await dispatcher.runDue();
			expect(receiver.records.map((request) => request.path)).toEqual(['/scans']);
			expect(dispatcher.listDeliveries({ type: 'scan.created' })).toHaveLength(1);
		});

		it.each([
			[204, 'succeeded'],
			[404, 'pending'],
			[410, 'pending'],
			[302, 'pending'],
		])('counts an answer of %i as %s', async (status, outcome) => {
			receiver.answerWith(status, { headers: { location: receiver.urlFor('/moved') } });
			subscribe();
			await emitScan();
			expect(dispatcher.listDeliveries()[0]).toMatchObject({
				status: outcome,
				attempts: [{ status_code: status }],
			});
			expect(receiver.records.map((request) => request.path)).toEqual(['/hook']);
		});
	});

	describe('retries', () => {
		it('retries a failing receiver at +1m, +5m, +30m, +2h, +6h with the same id and a valid signature', async () => {
			receiver.answerWith(500);
			const { secret } = subscribe();
			const event = await emitScan();
			const attemptTimes = [START];
			for (const delay of RETRY_DELAYS_MS) {
				const sent = receiver.records.length;
				await advance(delay - 1000);
				expect(receiver.records).toHaveLength(sent); // nothing before the time
				await advance(1000);
				expect(receiver.records).toHaveLength(sent + 1);
				attemptTimes.push(clock.ms);
			}
			await advance(24 * HOUR);

			expect(receiver.records).toHaveLength(6);
			for (const request of receiver.records) {
				expect(request.headers['webhook-id']).toBe(event.id);
				expect(new Webhook(secret).verify(request.rawBody, request.headers)).toEqual(event);
			}
			const [delivery] = dispatcher.listDeliveries();
			expect(delivery.status).toBe('failed');
			expect(delivery.next_attempt_at).toBeNull();
			expect(delivery.attempts.map((attempt) => Date.parse(attempt.attempted_at))).toEqual(
				attemptTimes,
			);
			expect(delivery.attempts.every((attempt) => attempt.status_code === 500)).toBe(true);
			expect(attemptTimes.map((time) => (time - START) / MINUTE)).toEqual([0, 1, 6, 36, 156, 516]);
		});

		it('shows when the next attempt is due', async () => {
			receiver.answerWith(503);
			subscribe();
			await emitScan();
			expect(dispatcher.listDeliveries()[0]).toMatchObject({
				status: 'pending',
				next_attempt_at: '2030-01-01T00:01:00.000Z',
			});
		});

		it('stops once a retry succeeds', async () => {
			receiver.answerWith(500);
			subscribe();
			await emitScan();
			await advance(MINUTE);
			receiver.answerWith(200);
			await advance(5 * MINUTE);
			await advance(24 * HOUR);
			expect(receiver.records).toHaveLength(3);
			expect(dispatcher.listDeliveries()[0]).toMatchObject({
				status: 'succeeded',
				next_attempt_at: null,
			});
		});

		it('makes every missed attempt when the clock jumps past the whole schedule', async () => {
			receiver.answerWith(500);
			subscribe();
			await emitScan();
			await advance(FULL_SCHEDULE);
			expect(receiver.records).toHaveLength(6);
			expect(dispatcher.listDeliveries()[0].status).toBe('failed');
		});

		it('treats a receiver slower than the timeout as a failure', async () => {
			dispatcher = new WebhookDispatcher({ clock, outbox, timeoutMs: 200 });
			receiver.answerWith(200, { delayMs: 1000 });
			subscribe();
			await emitScan();
			const [delivery] = dispatcher.listDeliveries();
			expect(delivery.status).toBe('pending');
			expect(delivery.attempts[0]).toMatchObject({
				status_code: null,
				error: 'No answer within 200 ms',
			});
			expect(delivery.attempts[0].duration_ms).toBeLessThan(1000);
		});

		it('treats a refused connection as a failure', async () => {
			await receiver.close();
			subscribe();
			await emitScan();
			const [delivery] = dispatcher.listDeliveries();
			expect(delivery).toMatchObject({
				status: 'pending',
				next_attempt_at: '2030-01-01T00:01:00.000Z',
			});
			expect(delivery.attempts[0]).toMatchObject({
				status_code: null,
				error: expect.stringMatching(/ECONNREFUSED/),
			});
		});

		it('stops after the endpoint is deleted', async () => {
			receiver.answerWith(500);
			const { id } = subscribe();
			await emitScan();
			expect(dispatcher.deleteEndpoint(WORKSPACE.id, id)).toBe(true);
			await advance(FULL_SCHEDULE);
			await emitScan();
			expect(receiver.records).toHaveLength(1);
			expect(dispatcher.listDeliveries()).toEqual([
				expect.objectContaining({ status: 'failed', next_attempt_at: null }),
			]);
		});

		it('makes no retry when the endpoint is deleted during an attempt', async () => {
			receiver.answerWith(500, { delayMs: 50 });
			const { id } = subscribe();
			dispatcher.emit(WORKSPACE, 'scan.created', SCAN);
			dispatcher.deleteEndpoint(WORKSPACE.id, id);
			await dispatcher.runDue();
			await advance(FULL_SCHEDULE);
			expect(receiver.records).toHaveLength(1);
			expect(dispatcher.listDeliveries()[0]).toMatchObject({
				status: 'failed',
				attempts: [{ status_code: 500 }],
			});
		});
	});

	describe('pausing', () => {
		const failEvents = async (count) => {
			for (let index = 0; index < count; index++) dispatcher.emit(WORKSPACE, 'scan.created', SCAN);
			await dispatcher.runDue();
			await advance(FULL_SCHEDULE);
		};

		beforeEach(() => receiver.answerWith(500));

		it('keeps an endpoint active after 19 fully failed events', async () => {
			const { id } = subscribe();
			await failEvents(19);
			expect(dispatcher.getEndpoint(WORKSPACE.id, id).status).toBe('active');
			expect(outbox).toEqual([]);
		});

		it('pauses after 20 fully failed events in a row and e-mails the owner once', async () => {
			const { id } = subscribe();
			await failEvents(20);
			expect(receiver.records).toHaveLength(120);
			expect(dispatcher.getEndpoint(WORKSPACE.id, id).status).toBe('paused');
			expect(outbox).toEqual([
				{
					to: 'owner@sandbox.test',
					subject: expect.stringContaining(receiver.urlFor('/hook')),
					text: expect.stringMatching(/20 events in a row/),
					endpoint_id: id,
					sent_at: new Date(clock.ms).toISOString(),
				},
			]);

			await failEvents(25);
			expect(receiver.records).toHaveLength(120);
			expect(dispatcher.listDeliveries()).toHaveLength(20);
			expect(outbox).toHaveLength(1);
		});

		it('starts counting again after a success', async () => {
			const { id } = subscribe();
			await failEvents(19);
			receiver.answerWith(200);
			await emitScan();
			receiver.answerWith(500);
			await failEvents(19);
			expect(dispatcher.getEndpoint(WORKSPACE.id, id).status).toBe('active');
			await failEvents(1);
			expect(dispatcher.getEndpoint(WORKSPACE.id, id).status).toBe('paused');
			expect(outbox).toHaveLength(1);
		});

		it('drops the retries still waiting when the endpoint pauses', async () => {
			subscribe();
			await failEvents(19);
			const twentiethAt = clock.ms;
			const twentieth = await emitScan();
			await advance(3 * HOUR);
			const later = await emitScan();
			await advance(FULL_SCHEDULE - RETRY_DELAYS_MS.at(-1)); // the later event waits for its last attempt
			await advance(twentiethAt + FULL_SCHEDULE - clock.ms); // the twentieth event's last attempt pauses
			await advance(24 * HOUR);

			const deliveryOf = (event) =>
				dispatcher.listDeliveries().find((delivery) => delivery.event_id === event.id);
			expect(deliveryOf(twentieth).attempts).toHaveLength(6);
			expect(deliveryOf(later)).toMatchObject({ status: 'failed', next_attempt_at: null });
			expect(deliveryOf(later).attempts).toHaveLength(5);
		});
	});

	it('cancels attempts under way on close', async () => {
		receiver.answerWith(200, { delayMs: 5000 });
		subscribe();
		dispatcher.emit(WORKSPACE, 'scan.created', SCAN);
		dispatcher.close();
		const started = Date.now();
		await dispatcher.runDue();
		expect(Date.now() - started).toBeLessThan(1000);
		expect(dispatcher.listDeliveries()[0].attempts).toEqual([]);
	});
});
