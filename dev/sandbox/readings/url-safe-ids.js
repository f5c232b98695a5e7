'use strict';

const { makeUrlSafeIdsForThisRequest } = require('../ids');

/** A service whose ids use the whole URL-safe alphabet, `-` and `_` included. */
module.exports = {
	name: 'url-safe-ids',
	item: 'Ids are "strings of 12 characters"; their alphabet: not shown',
	description:
		'Records created through the API get 12-character ids of [A-Za-z0-9_-], each holding a "-" and a "_".',
	before() {
		makeUrlSafeIdsForThisRequest();
		return undefined;
	},
};
