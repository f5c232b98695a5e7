'use strict';

/**
 * Per-key token buckets. Each bucket refills `perMinute / 60` tokens a second up to `burst`
 * (default: one minute's worth). Time comes from the sandbox clock, so advancing it refills.
 */
function createRateLimiter(clock, { perMinute, burst }) {
	let config = { perMinute, burst: burst || perMinute };
	let buckets = new Map();

	function take(key) {
		const now = clock.now();
		const ratePerMs = config.perMinute / 60000;
		const bucket = buckets.get(key) || { tokens: config.burst, at: now };
		bucket.tokens = Math.min(
			config.burst,
			bucket.tokens + Math.max(0, now - bucket.at) * ratePerMs,
		);
		bucket.at = now;
		buckets.set(key, bucket);
		const headers = { 'X-RateLimit-Limit': String(config.perMinute) };
		if (bucket.tokens < 1) {
			const retryAfter = Math.max(1, Math.ceil((1 - bucket.tokens) / ratePerMs / 1000));
			return { allowed: false, retryAfter, headers: { ...headers, 'X-RateLimit-Remaining': '0' } };
		}
		bucket.tokens -= 1;
		return {
			allowed: true,
			headers: { ...headers, 'X-RateLimit-Remaining': String(Math.floor(bucket.tokens)) },
		};
	}

	/** Peek without spending: the headers a fault answer carries. */
	function headersFor(key) {
		const bucket = buckets.get(key);
		const remaining = bucket ? Math.floor(bucket.tokens) : config.burst;
		return {
			'X-RateLimit-Limit': String(config.perMinute),
			'X-RateLimit-Remaining': String(remaining),
		};
	}

	return {
		take,
		headersFor,
		configure({ perMinute: nextPerMinute, burst: nextBurst }) {
			const perMinuteNow = nextPerMinute || config.perMinute;
			config = { perMinute: perMinuteNow, burst: nextBurst || perMinuteNow };
			buckets = new Map(); // new limits start with full buckets
			return { ...config };
		},
		config: () => ({ ...config }),
		reset() {
			buckets = new Map();
		},
	};
}

module.exports = { createRateLimiter };
