'use strict';

const { reshapeList } = require('../pagination');

/** A service whose `links` never has a `next` key: only `meta` tells whether more pages follow. */
module.exports = {
	name: 'links-without-next',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'List answers are { data, links: { first, last, prev }, meta }: links has no next key; meta (current_page, last_page, total) says whether more pages follow.',
	after: (call, answer) =>
		reshapeList(call, answer, ({ data, links: { first, last, prev }, meta }) => ({
			data,
			links: { first, last, prev },
			meta,
		})),
};
