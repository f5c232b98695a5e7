'use strict';

/**
 * A service that hands image downloads to a CDN on another origin. The redirect itself is made
 * in cdn.js (it needs the rendered file and the CDN's address, which a reading cannot see); this
 * file names the reading so it can be switched on like any other.
 */
module.exports = {
	name: 'image-redirect-cdn',
	item: 'Success status codes per operation: not shown',
	description:
		'GET /qr-codes/{id}/image answers 302 to the same path on another origin (a CDN, see GET /__sandbox/cdn/requests), which serves the file without asking for a key.',
};
