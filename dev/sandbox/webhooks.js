'use strict';

// Webhook endpoints and event deliveries for the sandbox. Signatures come from the
// `standardwebhooks` reference library, never from our own HMAC code, so the nodes' verifier
// is checked against the real scheme. Retries follow the reference's schedule on the sandbox
// clock, which tests advance instead of waiting.

const crypto = require('node:crypto');
const axios = require('axios');
const { Webhook } = require('standardwebhooks');

const MINUTE_MS = 60 * 1000;
const RETRY_DELAYS_MS = [1, 5, 30, 120, 360].map((minutes) => minutes * MINUTE_MS);
const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const FAILED_EVENTS_BEFORE_PAUSE = 20;
const USER_AGENT = 'DynamicQrSandbox-Webhooks/1.0 (n8n-nodes-dynamic-qr sandbox)';
const ID_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomId(length) {
	return Array.from({ length }, () => ID_ALPHABET[crypto.randomInt(ID_ALPHABET.length)]).join('');
}

function newSecret() {
	return `whsec_${crypto.randomBytes(24).toString('base64')}`;
}

function isoTime(epochMs) {
	return new Date(epochMs).toISOString();
}

function isSuccess(statusCode) {
	return statusCode !== null && statusCode >= 200 && statusCode < 300;
}

// Pending with no next attempt means an attempt is under way.
function isWaiting(delivery) {
	return delivery.status === 'pending' && delivery.nextAttemptAt !== null;
}

function describeRequestError(error) {
	return error.code ? `${error.code}: ${error.message}` : error.message;
}

function publicEndpoint(endpoint) {
	return {
		id: endpoint.id,
		object: 'webhook_endpoint',
		url: endpoint.url,
		events: [...endpoint.events],
		status: endpoint.status,
		created_at: endpoint.createdAt,
	};
}

function publicDelivery(delivery) {
	return {
		id: delivery.id,
		event_id: delivery.eventId,
		endpoint_id: delivery.endpointId,
		type: delivery.type,
		status: delivery.status,
		attempts: delivery.attempts.map((attempt) => ({ ...attempt })),
		next_attempt_at: delivery.nextAttemptAt === null ? null : isoTime(delivery.nextAttemptAt),
	};
}

function pausedEndpointEmail(endpoint, sentAt, timeoutMs) {
	return {
		to: endpoint.workspace.ownerEmail,
		subject: `Webhook endpoint paused: ${endpoint.url}`,
		text: [
			`Your webhook endpoint ${endpoint.url} (id ${endpoint.id}) has been paused because`,
			`${FAILED_EVENTS_BEFORE_PAUSE} events in a row failed every delivery attempt. It receives no events while paused.`,
			`Make sure it answers every delivery with a 2xx status within ${timeoutMs / 1000} seconds, then remove the`,
			'endpoint and add it again in the dashboard or with POST /webhooks.',
		].join('\n'),
		endpoint_id: endpoint.id,
		sent_at: isoTime(sentAt),
	};
}

class WebhookDispatcher {
	constructor({ clock, outbox, timeoutMs = 10000, readings, faults }) {
		this.readings = readings; // other readings may shape the `data` of events
		this.faults = faults; // deliveryFailRate: attempts that fail unsent
		this.clock = clock;
		this.outbox = outbox;
		this.timeoutMs = timeoutMs;
		this.endpoints = new Map(); // in creation order
		this.deliveries = new Map(); // in creation order
		this.inFlight = new Set(); // promises of attempts under way
		this.aborter = new AbortController(); // cancels attempts under way on reset and close
		this.closed = false;
	}

	createEndpoint(workspace, { url, events }) {
		const secret = newSecret();
		const endpoint = {
			id: randomId(12),
			workspace,
			url,
			events: [...events],
			status: 'active',
			createdAt: isoTime(this.clock.now()),
			secret,
			signer: new Webhook(secret),
			failedEventsInARow: 0,
		};
		this.endpoints.set(endpoint.id, endpoint);
		return { ...publicEndpoint(endpoint), secret };
	}

	listEndpoints(workspaceId) {
		return this.endpointsOf(workspaceId).reverse().map(publicEndpoint);
	}

	getEndpoint(workspaceId, id) {
		const endpoint = this.endpointsOf(workspaceId).find((candidate) => candidate.id === id);
		return endpoint && publicEndpoint(endpoint);
	}

	deleteEndpoint(workspaceId, id) {
		if (!this.getEndpoint(workspaceId, id)) return false;
		this.endpoints.delete(id);
		this.abandonWaitingDeliveries(id);
		return true;
	}

	allEndpoints() {
		return [...this.endpoints.values()].map(publicEndpoint);
	}

	/** Sends an event to every active endpoint of the workspace subscribed to its type. */
	emit(workspace, type, ownData) {
		const data = this.readings ? this.readings.event(type, ownData) : ownData;
		const event = { id: `evt_${randomId(24)}`, type, created_at: isoTime(this.clock.now()), data };
		const body = JSON.stringify(event); // serialised once: every attempt sends and signs the same bytes
		for (const endpoint of this.endpointsOf(workspace.id)) {
			if (endpoint.status !== 'active' || !endpoint.events.includes(type)) continue;
			const delivery = {
				id: `dlv_${randomId(24)}`,
				eventId: event.id,
				endpointId: endpoint.id,
				type,
				body,
				status: 'pending',
				attempts: [],
				nextAttemptAt: this.clock.now(),
			};
			this.deliveries.set(delivery.id, delivery);
			this.startAttempt(delivery);
		}
		return event;
	}

	/**
	 * Attempts every delivery that is due and waits for all attempts under way. Loops because
	 * after a large jump of the clock, the retry of a failed attempt can already be due.
	 */
	async runDue() {
		for (;;) {
			this.dueDeliveries().forEach((delivery) => this.startAttempt(delivery));
			if (this.inFlight.size === 0) return;
			await Promise.all(this.inFlight);
		}
	}

	/**
	 * The dashboard's manual resend: one attempt now, outside the retry schedule, with the same
	 * webhook-id and body, signed afresh with the endpoint's secret and the current timestamp.
	 * Recorded among the delivery's attempts with `manual: true`. A success marks the delivery
	 * succeeded (a retry still scheduled is dropped); a failure changes nothing else (a pending
	 * delivery keeps its schedule, a failed one stays failed). Resolves to
	 * `{ delivery, attempt }`, or null when there is no such delivery; throws when its endpoint
	 * has been removed (the dashboard cannot resend to it either).
	 */
	async resend(deliveryId) {
		const delivery = this.deliveries.get(deliveryId);
		if (!delivery) return null;
		const endpoint = this.endpoints.get(delivery.endpointId);
		if (!endpoint) {
			const error = new Error('The endpoint of this delivery has been removed.');
			error.code = 'ENDPOINT_GONE';
			throw error;
		}
		const attemptedAt = this.clock.now();
		const startedAt = Date.now();
		const sending = this.post(endpoint, delivery);
		this.inFlight.add(sending);
		let outcome;
		try {
			outcome = await sending;
		} finally {
			this.inFlight.delete(sending);
		}
		const attempt = {
			attempted_at: isoTime(attemptedAt),
			...outcome,
			duration_ms: Date.now() - startedAt,
			manual: true,
		};
		if (!this.isTracked(delivery)) return { delivery: publicDelivery(delivery), attempt };
		delivery.attempts.push(attempt);
		if (isSuccess(outcome.status_code) && delivery.status !== 'succeeded') {
			delivery.status = 'succeeded';
			// An attempt under way keeps nextAttemptAt null; a waiting retry is no longer needed.
			delivery.nextAttemptAt = null;
			endpoint.failedEventsInARow = 0;
		}
		return { delivery: publicDelivery(delivery), attempt: { ...attempt } };
	}

	listDeliveries({ endpointId, type } = {}) {
		return [...this.deliveries.values()]
			.filter((delivery) => endpointId === undefined || delivery.endpointId === endpointId)
			.filter((delivery) => type === undefined || delivery.type === type)
			.map(publicDelivery);
	}

	reset() {
		this.cancelAttemptsUnderWay();
		this.endpoints.clear();
		this.deliveries.clear();
	}

	close() {
		this.closed = true;
		this.cancelAttemptsUnderWay();
	}

	endpointsOf(workspaceId) {
		return [...this.endpoints.values()].filter((endpoint) => endpoint.workspace.id === workspaceId);
	}

	isActive(endpoint) {
		return this.endpoints.get(endpoint.id) === endpoint && endpoint.status === 'active';
	}

	// A delivery forgotten by reset, or any delivery after close, must not change state any more.
	isTracked(delivery) {
		return !this.closed && this.deliveries.get(delivery.id) === delivery;
	}

	dueDeliveries() {
		const now = this.clock.now();
		return [...this.deliveries.values()].filter(
			(delivery) => isWaiting(delivery) && delivery.nextAttemptAt <= now,
		);
	}

	cancelAttemptsUnderWay() {
		this.aborter.abort();
		this.aborter = new AbortController();
	}

	startAttempt(delivery) {
		if (this.closed) return;
		const dueAt = delivery.nextAttemptAt;
		delivery.nextAttemptAt = null; // under way, so not due again until it has failed
		const attempt = this.attempt(delivery, dueAt).finally(() => this.inFlight.delete(attempt));
		this.inFlight.add(attempt);
	}

	async attempt(delivery, dueAt) {
		const endpoint = this.endpoints.get(delivery.endpointId);
		const attemptedAt = this.clock.now();
		const startedAt = Date.now();
		const outcome = await this.post(endpoint, delivery);
		if (!this.isTracked(delivery)) return;
		delivery.attempts.push({
			attempted_at: isoTime(attemptedAt),
			...outcome,
			duration_ms: Date.now() - startedAt,
		});
		if (isSuccess(outcome.status_code)) {
			delivery.status = 'succeeded';
			endpoint.failedEventsInARow = 0;
		} else if (delivery.status !== 'succeeded') {
			// (A manual resend may have succeeded while this attempt was under way.)
			this.recordFailure(delivery, endpoint, dueAt);
		}
	}

	/** One POST; resolves to { status_code, error } and never rejects. */
	async post(endpoint, delivery) {
		if (this.faults?.takeDeliveryFailure())
			return { status_code: null, error: 'Receiver unreachable (the deliveryFailRate fault)' };
		const sentAt = new Date(); // real time: receivers compare the timestamp with their own clock
		const headers = {
			'content-type': 'application/json',
			'user-agent': USER_AGENT,
			'webhook-id': delivery.eventId,
			'webhook-timestamp': String(Math.floor(sentAt.getTime() / 1000)),
			'webhook-signature': endpoint.signer.sign(delivery.eventId, sentAt, delivery.body),
		};
		// A deadline for the whole exchange; axios's own timeout only watches an idle socket.
		const deadline = AbortSignal.timeout(this.timeoutMs);
		try {
			const response = await axios.post(endpoint.url, delivery.body, {
				headers,
				signal: AbortSignal.any([deadline, this.aborter.signal]),
				transformRequest: [(body) => body],
				transformResponse: [(body) => body],
				validateStatus: () => true,
				maxRedirects: 0, // a redirect is not a 2xx answer
				proxy: false, // the receiver is reached directly, whatever the environment says
			});
			return { status_code: response.status, error: null };
		} catch (error) {
			const message = deadline.aborted
				? `No answer within ${this.timeoutMs} ms`
				: describeRequestError(error);
			return { status_code: null, error: message };
		}
	}

	recordFailure(delivery, endpoint, dueAt) {
		if (!this.isActive(endpoint)) {
			delivery.status = 'failed'; // paused or deleted while this attempt ran
			return;
		}
		const attemptsMade = delivery.attempts.length;
		if (attemptsMade < MAX_ATTEMPTS) {
			// Counted from when the attempt was due, so a jump of the clock replays the whole schedule.
			delivery.nextAttemptAt = dueAt + RETRY_DELAYS_MS[attemptsMade - 1];
			return;
		}
		delivery.status = 'failed';
		endpoint.failedEventsInARow += 1;
		if (endpoint.failedEventsInARow >= FAILED_EVENTS_BEFORE_PAUSE) this.pause(endpoint);
	}

	/** Pauses an endpoint as if its deliveries had failed (for the control API); false if unknown. */
	pauseById(id) {
		const endpoint = this.endpoints.get(id);
		if (!endpoint) return false;
		this.pause(endpoint);
		return true;
	}

	resumeById(id) {
		const endpoint = this.endpoints.get(id);
		if (!endpoint) return false;
		endpoint.status = 'active';
		return true;
	}

	pause(endpoint) {
		endpoint.status = 'paused';
		this.abandonWaitingDeliveries(endpoint.id);
		this.outbox.push(pausedEndpointEmail(endpoint, this.clock.now(), this.timeoutMs));
	}

	// Retries stop with the endpoint; attempts under way finish and record their answer.
	abandonWaitingDeliveries(endpointId) {
		for (const delivery of this.deliveries.values()) {
			if (delivery.endpointId !== endpointId || !isWaiting(delivery)) continue;
			delivery.status = 'failed';
			delivery.nextAttemptAt = null;
		}
	}
}

module.exports = { WebhookDispatcher, RETRY_DELAYS_MS };
