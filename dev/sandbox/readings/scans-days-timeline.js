'use strict';

const { reshapeAnswer } = require('../scans');

/** A service that names the scans per day `timeline`: the nodes refuse it by name. */
module.exports = {
	name: 'scans-days-timeline',
	item: 'The shape of the scans response itself: not shown',
	description:
		'/scans answers the scans per day as `timeline`, a name the nodes do not know: they refuse the answer, naming what arrived, rather than count no scans.',
	after: reshapeAnswer(({ days, ...rest }) => ({ ...rest, timeline: days })),
};
