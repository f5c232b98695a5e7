'use strict';

const { reshapeList } = require('../pagination');

/** A service that counts pages as total_pages (not last_page) and sends no links. */
module.exports = {
	name: 'meta-total-pages',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'List answers are { data, meta: { page, per_page, total_pages, total } }: no current_page or last_page, no links.',
	after: (call, answer) =>
		reshapeList(call, answer, ({ data, meta }) => ({
			data,
			meta: {
				page: meta.current_page,
				per_page: meta.per_page,
				total_pages: meta.last_page,
				total: meta.total,
			},
		})),
};
