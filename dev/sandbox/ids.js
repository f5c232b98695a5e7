'use strict';

const crypto = require('node:crypto');

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const URL_SAFE = `${ALPHANUMERIC}-_`;

function randomAlphanumeric(length) {
	let out = '';
	for (const byte of crypto.randomBytes(length)) {
		// 248 is the largest multiple of 62 below 256; rejecting above it keeps the draw uniform.
		if (byte < 248) out += ALPHANUMERIC[byte % ALPHANUMERIC.length];
	}
	return out.length === length ? out : out + randomAlphanumeric(length - out.length);
}

/**
 * A 12-character id of [A-Za-z0-9_-] (the url-safe-ids reading). It always holds a `-` and a `_`,
 * at random places (the first and last included), so every record made under the reading proves
 * that the nodes take them.
 */
function urlSafeId() {
	// 64 symbols divide 256, so `byte % 64` is uniform.
	const chars = [...crypto.randomBytes(12)].map((byte) => URL_SAFE[byte % URL_SAFE.length]);
	const [dash, underscore] = [...crypto.randomBytes(2)].map((byte) => byte % 12);
	chars[dash] = '-';
	chars[underscore === dash ? (dash + 1) % 12 : underscore] = '_';
	return chars.join('');
}

/**
 * Whether ids made now are url-safe. Ids are made by the route handlers, which know nothing of
 * readings; the url-safe-ids reading switches this on just before the sandbox routes a request
 * (handlers create their records synchronously), and it switches itself off at the next
 * microtask, before any other request or sandbox in this process can make an id.
 */
let urlSafeNow = false;

function makeUrlSafeIdsForThisRequest() {
	urlSafeNow = true;
	queueMicrotask(() => {
		urlSafeNow = false;
	});
}

/** Record ids: 12 characters [A-Za-z0-9], like the service's (or url-safe, see above). */
const newId = () => (urlSafeNow ? urlSafeId() : randomAlphanumeric(12));
const newApiKey = () => `api_${randomAlphanumeric(32)}`;
const newSlug = () => randomAlphanumeric(7);

module.exports = {
	newId,
	newApiKey,
	newSlug,
	randomAlphanumeric,
	urlSafeId,
	makeUrlSafeIdsForThisRequest,
};
