'use strict';

const { countAttempt, isRetryable } = require('./support/attempts');

/** A service that is briefly unavailable: the first attempt is answered 503 with Retry-After in seconds. */
module.exports = {
	name: 'retry-after-503',
	item: 'Statuses in the 5xx range and machine-readable error codes: not shown',
	description:
		'The first attempt of a GET, and of a POST /qr-codes carrying an Idempotency-Key, is answered 503 with Retry-After: 1 (seconds); later attempts go through.',
	before(call) {
		if (!isRetryable(call) || countAttempt(call) > 1) return undefined;
		return {
			status: 503,
			json: { message: 'The service is temporarily unavailable. Try again shortly.', errors: {} },
			headers: { 'Retry-After': '1' },
		};
	},
};
