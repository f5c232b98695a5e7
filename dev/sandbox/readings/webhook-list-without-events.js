'use strict';

/** A service whose endpoint list leaves out each endpoint's events (the create answer keeps them). */
module.exports = {
	name: 'webhook-list-without-events',
	item: 'Other fields of the webhook endpoint record: not shown',
	description:
		'GET /webhooks lists endpoint records without `events`; the create answer still holds them.',
	after(call, answer) {
		if (call.method !== 'GET' || call.route !== '/webhooks' || answer.status !== 200) return answer;
		const data = answer.json.data.map(({ events, ...endpoint }) => endpoint);
		return { ...answer, json: { ...answer.json, data } };
	},
};
