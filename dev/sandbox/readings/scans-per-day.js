'use strict';

const { reshapeAnswer } = require('../scans');

/** A service that names the list of scans per day `per_day`. */
module.exports = {
	name: 'scans-per-day',
	item: 'The shape of the scans response itself: not shown',
	description: '/scans answers the scans per day as `per_day` instead of `days`.',
	after: reshapeAnswer(({ days, ...rest }) => ({ ...rest, per_day: days })),
};
