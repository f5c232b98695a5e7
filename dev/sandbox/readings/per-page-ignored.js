'use strict';

const { DEFAULT_PER_PAGE } = require('../pagination');

/** A service that has one page size and ignores `per_page`; it says so only in `meta.per_page`. */
module.exports = {
	name: 'per-page-ignored',
	item: 'Default `per_page` (and its maximum): not shown',
	description: `Lists serve ${DEFAULT_PER_PAGE} records a page whatever per_page asks; meta.per_page and meta.last_page follow the ${DEFAULT_PER_PAGE}.`,
	before(call) {
		if (call.method === 'GET') delete call.query.per_page;
		return undefined;
	},
};
