'use strict';

const { invalid } = require('../http-util');

/** A service that takes `tags` as one comma-separated string and refuses a list. */
module.exports = {
	name: 'tags-as-string',
	item: 'Type of `tags` and whether `folder` must already exist: not shown',
	description:
		'POST /qr-codes takes tags as a comma-separated string ("spring, print"); a list is refused with 422 on `tags`.',
	before(call) {
		if (call.method !== 'POST' || call.route !== '/qr-codes') return undefined;
		const tags = call.body?.tags;
		if (Array.isArray(tags)) throw invalid({ tags: 'The tags must be a string.' });
		// The sandbox's own route reads a list: hand it the tags the string names.
		if (typeof tags === 'string') {
			call.body.tags = tags
				.split(',')
				.map((tag) => tag.trim())
				.filter(Boolean);
		}
		return undefined;
	},
};
