'use strict';

const { reshapeList } = require('../pagination');

/** A service whose list answers carry the records alone: the end shows only as a page with none. */
module.exports = {
	name: 'data-only',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'List answers are { data } alone: no links, no meta; a page past the end holds no records.',
	after: (call, answer) => reshapeList(call, answer, ({ data }) => ({ data })),
};
