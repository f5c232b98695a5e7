'use strict';

/**
 * Counts attempts of one request (method, path and Idempotency-Key) in a reading's memory, so a
 * reading can fail the first attempt and let the retry through, as a struggling service would.
 */
function countAttempt(call) {
	const key = `${call.method} ${call.path} ${call.headers['idempotency-key'] ?? ''}`;
	call.memory.attempts ??= {};
	call.memory.attempts[key] = (call.memory.attempts[key] ?? 0) + 1;
	return call.memory.attempts[key];
}

/** Requests a service may tell to come back later: reads, and creates that carry their key. */
function isRetryable(call) {
	if (call.method === 'GET') return true;
	return (
		call.method === 'POST' &&
		call.route === '/qr-codes' &&
		call.headers['idempotency-key'] !== undefined
	);
}

module.exports = { countAttempt, isRetryable };
