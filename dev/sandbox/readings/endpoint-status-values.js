'use strict';

/** A service that calls a paused webhook endpoint "disabled". */
module.exports = {
	name: 'endpoint-status-values',
	item: 'Values of `status` other than `active`: not shown',
	description:
		'Webhook endpoints paused after failed deliveries are listed with status "disabled" (not "paused").',
	after(call, answer) {
		if (call.method !== 'GET' || call.route !== '/webhooks' || !Array.isArray(answer.json?.data))
			return answer;
		const data = answer.json.data.map((endpoint) =>
			endpoint.status === 'paused' ? { ...endpoint, status: 'disabled' } : endpoint,
		);
		return { ...answer, json: { ...answer.json, data } };
	},
};
