'use strict';

const { reshapeDays } = require('../scans');

/** A service that answers the scans per day as a map from date to count. */
module.exports = {
	name: 'scans-days-map',
	item: 'The shape of the scans response itself: not shown',
	description: '/scans answers days as a map { "2026-11-01": 3, … } instead of [{ date, scans }].',
	after: reshapeDays((days) => Object.fromEntries(days.map(({ date, scans }) => [date, scans]))),
};
