'use strict';

const crypto = require('node:crypto');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function randomAlphanumeric(length) {
	let out = '';
	for (const byte of crypto.randomBytes(length)) {
		// 248 is the largest multiple of 62 below 256; rejecting above it keeps the draw uniform.
		if (byte < 248) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
	}
	return out.length === length ? out : out + randomAlphanumeric(length - out.length);
}

/** Record ids: 12 characters [A-Za-z0-9], like the service's. */
const newId = () => randomAlphanumeric(12);
const newApiKey = () => `api_${randomAlphanumeric(32)}`;
const newSlug = () => randomAlphanumeric(7);

module.exports = { newId, newApiKey, newSlug, randomAlphanumeric };
