'use strict';

/** A service that serves at most 50 records a page whatever `per_page` asks, and says so only in `meta.per_page`. */
module.exports = {
	name: 'per-page-cap-50',
	item: 'Default `per_page` (and its maximum): not shown',
	description:
		'Lists serve at most 50 records a page, whatever per_page asks; meta.per_page and meta.last_page follow the 50.',
	before(call) {
		if (call.method === 'GET' && call.query.per_page !== undefined) {
			call.query.per_page = String(Math.min(50, Number(call.query.per_page) || 50));
		}
		return undefined;
	},
};
