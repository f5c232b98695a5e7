'use strict';

const { readSince } = require('../api-cards');

/** A service whose `since` is a Unix time in seconds. */
module.exports = {
	name: 'since-unix-seconds',
	item: 'Format of `since`: not shown',
	description:
		'since on leads must be Unix seconds (anything else is a 422 on since); leads created after that second come back.',
	before: readSince((since) =>
		/^\d{1,12}$/.test(since)
			? new Date(Number(since) * 1000).toISOString()
			: { refuse: 'must be a Unix time in seconds, e.g. 1903978800' },
	),
};
