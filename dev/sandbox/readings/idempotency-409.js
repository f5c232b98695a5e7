'use strict';

const { countAttempt } = require('./support/attempts');

const isKeyedCreate = (call) =>
	call.method === 'POST' &&
	call.route === '/qr-codes' &&
	call.headers['idempotency-key'] !== undefined;

/**
 * A service that reports a keyed create as still in progress: the first attempt creates the code
 * but answers 409; a repeat with the same key and body answers the created code (the sandbox's
 * own Idempotency-Key memory replays it).
 */
module.exports = {
	name: 'idempotency-409',
	item: 'How long an `Idempotency-Key` is remembered: not shown',
	description:
		'The first attempt of a create with an Idempotency-Key creates the code but answers 409 "a request with this Idempotency-Key is still being processed"; a repeat with the same key and body answers the created code.',
	after(call, answer) {
		if (!isKeyedCreate(call) || answer.status >= 300 || countAttempt(call) > 1) return answer;
		return {
			status: 409,
			json: {
				message: 'A request with this Idempotency-Key is still being processed.',
				errors: {},
			},
		};
	},
};
