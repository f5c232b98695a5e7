'use strict';
/**
 * A Standard Webhooks signer for the tests, written from the specification rather than taken
 * from the package, so the package's verifier is checked against an independent signer:
 * `v1,` + base64 of HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with the base64-decoded
 * secret (the part after `whsec_`).
 */
const crypto = require('node:crypto');

const SECRET_PREFIX = 'whsec_';

/** The `webhook-signature` header value for one delivery; `body` is a string or bytes. */
function sign(secret, id, timestampSeconds, body) {
	const encoded = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret;
	const key = Buffer.from(encoded, 'base64');
	const signature = crypto
		.createHmac('sha256', key)
		.update(`${id}.${timestampSeconds}.`)
		.update(typeof body === 'string' ? Buffer.from(body, 'utf8') : body)
		.digest('base64');
	return `v1,${signature}`;
}

/** A fresh random secret in the service's format. */
const randomSecret = () => `${SECRET_PREFIX}${crypto.randomBytes(24).toString('base64')}`;

module.exports = { sign, randomSecret };
