'use strict';

const { reshapeDays } = require('../scans');

/** A service that names each day's scan count `count`. */
module.exports = {
	name: 'scans-days-count',
	item: 'The shape of the scans response itself: not shown',
	description: '/scans answers days as [{ date, count }] instead of [{ date, scans }].',
	after: reshapeDays((days) => days.map(({ date, scans }) => ({ date, count: scans }))),
};
