'use strict';

/** A service that knows no page past the end of a list: it answers one with 404, as for any unknown thing. */
module.exports = {
	name: 'page-past-end-404',
	item: 'Contents of `links` and `meta` in list responses: not shown',
	description:
		'A page past the end of a list (page 2 or later holding no records) is answered 404; page 1 of an empty list is still 200.',
	after(call, answer) {
		const page = Number(call.query.page);
		const pastTheEnd =
			call.method === 'GET' &&
			answer.status === 200 &&
			Array.isArray(answer.json?.data) &&
			answer.json.data.length === 0 &&
			page > 1;
		return pastTheEnd
			? { status: 404, json: { message: `There is no page ${page} of this list.`, errors: {} } }
			: answer;
	},
};
