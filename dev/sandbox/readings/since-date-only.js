'use strict';

const { readSince } = require('../api-cards');
const { isCalendarDate } = require('../validators');

/** A service whose `since` is a day: the leads of that whole day, and later, come back. */
module.exports = {
	name: 'since-date-only',
	item: 'Format of `since`: not shown',
	description:
		'since on leads must be YYYY-MM-DD (a time is a 422 on since); it returns the leads of that whole day and later.',
	before: readSince((since) =>
		isCalendarDate(since)
			? new Date(Date.parse(`${since}T00:00:00Z`) - 1).toISOString()
			: { refuse: 'must be a date YYYY-MM-DD, e.g. 2030-05-01' },
	),
};
