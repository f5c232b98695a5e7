'use strict';

const { reshapeList } = require('../pagination');

/** A service whose list answers put the records under `items`: the nodes refuse it by name. */
module.exports = {
	name: 'list-items-key',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'List answers are { items, links, meta }: the records are not under `data`. The nodes refuse such a list, naming what arrived, rather than read it as empty.',
	after: (call, answer) =>
		reshapeList(call, answer, ({ data, ...rest }) => ({ items: data, ...rest })),
};
