'use strict';

const { reshapeList } = require('../pagination');

/** A service whose list answers say only where the next page is: no meta, no other links. */
module.exports = {
	name: 'links-next-only',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'List answers are { data, links: { next } }: next is the URL of the next page, null on the last; no meta.',
	after: (call, answer) =>
		reshapeList(call, answer, ({ data, links }) => ({ data, links: { next: links.next } })),
};
