'use strict';

const { countAttempt, isRetryable } = require('./support/attempts');

const ANSWERS = [
	{ status: 503, message: 'The service is temporarily unavailable.' },
	{ status: 429, message: 'Too many requests.' },
];

/**
 * Retry-After as an HTTP date (RFC 9110 allows either form): about two seconds ahead of the real
 * clock, which is the one a client compares it with (the sandbox clock may have been advanced).
 */
function retryAt() {
	return new Date(Date.now() + 2000).toUTCString();
}

/** A service that gives Retry-After as an HTTP date: a 503 first, then a 429, then the answer. */
module.exports = {
	name: 'retry-after-http-date',
	item: 'Statuses in the 5xx range and machine-readable error codes: not shown',
	description:
		'The first attempt of a GET, and of a POST /qr-codes carrying an Idempotency-Key, is answered 503 and the second 429, each with Retry-After as an HTTP date a second or two ahead; later attempts go through.',
	before(call) {
		if (!isRetryable(call)) return undefined;
		const answer = ANSWERS[countAttempt(call) - 1];
		if (!answer) return undefined;
		return {
			status: answer.status,
			json: { message: answer.message, errors: {} },
			headers: { 'Retry-After': retryAt() },
		};
	},
};
