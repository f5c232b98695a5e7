'use strict';

const { moveCreatedSecret } = require('../api-webhooks');

/** A service that names the endpoint's secret `signing_secret`. */
module.exports = {
	name: 'secret-named-signing-secret',
	item: 'Other fields of the webhook endpoint record: not shown',
	description:
		'POST /webhooks answers the secret as data.signing_secret and again as data.signing.secret (no data.secret).',
	after: moveCreatedSecret(({ data, secret }) => ({
		data: { ...data, signing_secret: secret, signing: { secret, scheme: 'standard-webhooks' } },
	})),
};
