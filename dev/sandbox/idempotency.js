'use strict';

const { invalid } = require('./http-util');

const REMEMBER_MS = 24 * 60 * 60 * 1000;

/** JSON with sorted object keys, so the same body in another key order counts as the same. */
function stableStringify(value) {
	if (Array.isArray(value)) return `[${value.map(stableStringify).join(',')}]`;
	if (value && typeof value === 'object') {
		const entries = Object.keys(value)
			.sort()
			.map((key) => `${JSON.stringify(key)}:${stableStringify(value[key])}`);
		return `{${entries.join(',')}}`;
	}
	return JSON.stringify(value);
}

/**
 * Idempotency-Key memory, per workspace, for 24 h of sandbox time. Only successful creates are
 * remembered, so a request that failed validation can be corrected and sent again with its key.
 */
function createIdempotency(state, clock) {
	const slot = (workspaceId, key) => `${workspaceId} ${key}`;

	function check(key) {
		if (typeof key !== 'string' || key.trim() === '' || key.length > 255) {
			throw invalid({ idempotency_key: 'The Idempotency-Key header must be 1 to 255 characters.' });
		}
	}

	return {
		/** The remembered answer for this key and body, or undefined; 422 when the body differs. */
		replay(workspaceId, key, body) {
			check(key);
			const remembered = state.idempotency.get(slot(workspaceId, key));
			if (!remembered || remembered.expiresAt <= clock.now()) return undefined;
			if (remembered.fingerprint !== stableStringify(body)) {
				throw invalid({
					idempotency_key:
						'This Idempotency-Key was already used with a different request body. Use a new key for a different code.',
				});
			}
			return remembered;
		},
		remember(workspaceId, key, body, answer) {
			state.idempotency.set(slot(workspaceId, key), {
				...answer,
				fingerprint: stableStringify(body),
				expiresAt: clock.now() + REMEMBER_MS,
			});
		},
	};
}

module.exports = { createIdempotency, stableStringify };
