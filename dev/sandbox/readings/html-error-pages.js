'use strict';

const { countAttempt } = require('./support/attempts');

const PAGE = Buffer.from(
	'<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center></body></html>\n',
);

/** A proxy in front of the service that answers its own HTML error page, as nginx does. */
module.exports = {
	name: 'html-error-pages',
	item: 'Statuses in the 5xx range and machine-readable error codes: not shown',
	description:
		'The first attempt of every request is answered 502 with an HTML page (Content-Type: text/html), as a proxy or gateway would; later attempts go through.',
	before(call) {
		if (countAttempt(call) > 1) return undefined;
		return { status: 502, buffer: PAGE, contentType: 'text/html; charset=utf-8' };
	},
};
