'use strict';

/** A service that marks a paused webhook endpoint with a flag, as QR codes have one, not a status. */
module.exports = {
	name: 'endpoint-paused-flag',
	item: 'How a paused endpoint is shown in the webhook endpoint record: not shown',
	description:
		'Webhook endpoint records carry `paused` (true or false) and no `status`; a paused endpoint is `paused: true`.',
	after(call, answer) {
		if (call.method !== 'GET' || !call.route.startsWith('/webhooks') || answer.status !== 200)
			return answer;
		const flagged = ({ status, ...endpoint }) => ({ ...endpoint, paused: status !== 'active' });
		const { data } = answer.json;
		return {
			...answer,
			json: { ...answer.json, data: Array.isArray(data) ? data.map(flagged) : flagged(data) },
		};
	},
};
