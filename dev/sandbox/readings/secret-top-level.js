'use strict';

const { moveCreatedSecret } = require('../api-webhooks');

/** A service that answers the signing secret beside the record rather than in it. */
module.exports = {
	name: 'secret-top-level',
	item: 'Other fields of the webhook endpoint record: not shown',
	description:
		'POST /webhooks answers { data: { …the endpoint without its secret }, secret: "whsec_…" }.',
	after: moveCreatedSecret(({ data, secret }) => ({ data, secret })),
};
