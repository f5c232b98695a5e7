'use strict';

// POST /__sandbox/deliveries/{id}/resend: the dashboard's manual resend of a delivery.

const { Webhook } = require('standardwebhooks');
const { useSandbox, settleDeliveries } = require('./helpers');
const { startRecorder } = require('../../http-recorder');

const sb = useSandbox();

let receiver;
beforeEach(async () => {
	receiver = await startRecorder();
});
afterEach(async () => {
	await receiver.close();
	await sb.control('POST', '/reset');
});

async function endpointFor(events) {
	return (await sb.api.post('/webhooks', { url: receiver.urlFor('/hook'), events })).body.data;
}

test('sends the same event again now: same webhook-id and body, a fresh timestamp and a valid signature', async () => {
	const { secret } = await endpointFor(['lead.created']);
	await sb.control('POST', '/leads', { name: 'Resend me' });
	await settleDeliveries(sb);
	expect(receiver.records).toHaveLength(1);
	const [delivery] = (await sb.control('GET', '/deliveries')).data;
	expect(delivery.status).toBe('succeeded');

	// Move the sandbox clock on: the resend's signature timestamp is real time, its attempt is
	// recorded at the sandbox's time.
	await sb.control('POST', '/clock/advance', { seconds: 3600 });
	const answer = await sb.control('POST', `/deliveries/${delivery.id}/resend`);
	expect(receiver.records).toHaveLength(2);
	const [first, second] = receiver.records;
	expect(second.headers['webhook-id']).toBe(first.headers['webhook-id']);
	expect(second.headers['webhook-id']).toBe(delivery.event_id);
	expect(second.rawBody).toBe(first.rawBody);
	const now = Math.floor(Date.now() / 1000);
	expect(Math.abs(Number(second.headers['webhook-timestamp']) - now)).toBeLessThanOrEqual(5);
	expect(new Webhook(secret).verify(second.rawBody, second.headers)).toMatchObject({
		id: delivery.event_id,
		type: 'lead.created',
	});

	expect(answer.data.attempt).toMatchObject({ status_code: 200, error: null, manual: true });
	expect(answer.data.delivery.id).toBe(delivery.id);
	expect(answer.data.delivery.status).toBe('succeeded');
	expect(answer.data.delivery.attempts).toHaveLength(2);
	expect(answer.data.delivery.attempts[0].manual).toBeUndefined();
	expect(answer.data.delivery.attempts[1]).toMatchObject({ status_code: 200, manual: true });
	expect(Date.parse(answer.data.delivery.attempts[1].attempted_at)).toBeGreaterThan(
		Date.parse(answer.data.delivery.attempts[0].attempted_at) + 3599 * 1000,
	);
	const listed = (await sb.control('GET', '/deliveries')).data;
	expect(listed).toEqual([answer.data.delivery]);
});

test('a successful resend of a delivery waiting for its retry marks it succeeded and cancels the retry', async () => {
	await endpointFor(['lead.created']);
	receiver.answerWith(500);
	await sb.control('POST', '/leads', { name: 'Failing at first' });
	await settleDeliveries(sb);
	let [delivery] = (await sb.control('GET', '/deliveries')).data;
	expect(delivery.status).toBe('pending');
	expect(delivery.next_attempt_at).not.toBeNull();

	receiver.answerWith(204);
	const answer = await sb.control('POST', `/deliveries/${delivery.id}/resend`);
	expect(answer.data.attempt.status_code).toBe(204);
	expect(answer.data.delivery).toMatchObject({ status: 'succeeded', next_attempt_at: null });

	// The retry that was due in a minute is not sent any more.
	await sb.control('POST', '/clock/advance', { seconds: 61 });
	expect(receiver.records).toHaveLength(2);
	[delivery] = (await sb.control('GET', '/deliveries')).data;
	expect(delivery.attempts.map((attempt) => attempt.status_code)).toEqual([500, 204]);
});

test('a failed resend is recorded and leaves the retry schedule as it was', async () => {
	await endpointFor(['lead.created']);
	receiver.answerWith(500);
	await sb.control('POST', '/leads', { name: 'Still failing' });
	await settleDeliveries(sb);
	const [before] = (await sb.control('GET', '/deliveries')).data;
	const answer = await sb.control('POST', `/deliveries/${before.id}/resend`);
	expect(answer.data.attempt).toMatchObject({ status_code: 500, manual: true });
	expect(answer.data.delivery).toMatchObject({
		status: 'pending',
		next_attempt_at: before.next_attempt_at,
	});
	expect(answer.data.delivery.attempts).toHaveLength(2);
});

test('an unknown delivery is a 404; a delivery whose endpoint was removed is a 422', async () => {
	await expect(sb.control('POST', '/deliveries/dlv_nope/resend')).rejects.toMatchObject({
		status: 404,
	});
	const { id } = await endpointFor(['lead.created']);
	await sb.control('POST', '/leads', { name: 'Gone' });
	await settleDeliveries(sb);
	const [delivery] = (await sb.control('GET', '/deliveries')).data;
	expect((await sb.api.delete(`/webhooks/${id}`)).status).toBe(204);
	await expect(sb.control('POST', `/deliveries/${delivery.id}/resend`)).rejects.toMatchObject({
		status: 422,
		body: { errors: { endpoint_id: [expect.any(String)] } },
	});
	expect(receiver.records).toHaveLength(1);
});

test('deliveryFailRate 1: every attempt fails unsent, as when the receiver is away, until it is set back to 0', async () => {
	await endpointFor(['lead.created']);
	await sb.control('POST', '/faults', { deliveryFailRate: 1 });
	await sb.control('POST', '/leads', { name: 'Held back' });
	await sb.control('POST', '/clock/advance', { seconds: 9 * 3600 });
	const [dropped] = (await sb.control('GET', '/deliveries')).data;
	expect(dropped.status).toBe('failed');
	expect(dropped.attempts).toHaveLength(6);
	expect(dropped.attempts.every((attempt) => attempt.status_code === null)).toBe(true);
	expect(receiver.records).toHaveLength(0);

	await sb.control('POST', '/faults', { deliveryFailRate: 0 });
	await sb.control('POST', '/leads', { name: 'Delivered' });
	await settleDeliveries(sb);
	expect(receiver.records).toHaveLength(1);
	expect(JSON.parse(receiver.records[0].rawBody).data.lead.name).toBe('Delivered');
});
