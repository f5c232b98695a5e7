'use strict';

/**
 * The reference names only `X-RateLimit-Remaining`; the sandbox also sends `X-RateLimit-Limit`.
 * Under this reading it does not (dev/sandbox/api-server.js drops it), and a client learns the
 * plan's rate only from what is left.
 */
module.exports = {
	name: 'rate-limit-remaining-only',
	item: 'Numeric requests-per-minute values per plan: not shown',
	description:
		'Answers carry X-RateLimit-Remaining (and Retry-After on a 429) but no X-RateLimit-Limit.',
};
