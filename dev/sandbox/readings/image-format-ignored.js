'use strict';

/** A 1 × 1 PNG: what this service sends whatever format is asked for. */
const PNG = Buffer.from(
	'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
	'base64',
);

/** A service that ignores `format` and answers PNG: the nodes refuse a file of another format. */
module.exports = {
	name: 'image-format-ignored',
	item: 'The default format and what wins when `size`, `mm` and `dpi` are combined: not shown',
	description:
		'GET /qr-codes/{id}/image and POST /static-qr-codes answer a PNG whatever format is asked for. The nodes refuse a file that is not of the asked format, naming what arrived.',
	after(call, answer) {
		if (!answer.buffer) return answer;
		return { ...answer, buffer: PNG, contentType: 'image/png', headers: {} };
	},
};
