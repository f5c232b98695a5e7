'use strict';

const { readSince } = require('../api-cards');

/** A service that takes `since` and ignores it. */
module.exports = {
	name: 'since-ignored',
	item: 'Format of `since`: not shown',
	description: 'since on leads is accepted in any form and ignored: every lead comes back.',
	before: readSince(() => undefined),
};
