'use strict';

const { LAST_PAGE_PAST_THE_END } = require('../pagination');

/** A service that clamps the page number: any page past the end is answered with the last page. */
module.exports = {
	name: 'page-past-end-repeats-last',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'A page past the end of a list is answered with the last page again (its records, links and meta), not with an empty page.',
	before(call) {
		if (call.method === 'GET') call.query[LAST_PAGE_PAST_THE_END] = true;
		return undefined;
	},
};
