'use strict';

// A small multipart/form-data parser: enough for one logo file field, no streaming.

function boundaryOf(contentType) {
	const match = /^multipart\/form-data\s*;.*?\bboundary=(?:"([^"]+)"|([^\s;]+))/i.exec(
		contentType || '',
	);
	return match ? match[1] || match[2] : null;
}

function parseHeaders(block) {
	const headers = {};
	for (const line of block.split('\r\n')) {
		const colon = line.indexOf(':');
		if (colon > 0)
			headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
	}
	return headers;
}

function dispositionParam(disposition, name) {
	const match = new RegExp(`\\b${name}\\*?=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;]+))`, 'i').exec(
		disposition || '',
	);
	if (!match) return undefined;
	return (match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : match[2].trim()).replace(
		/^UTF-8''/i,
		'',
	);
}

/**
 * @returns {Array<{ name, filename?, contentType?, data: Buffer }>} or null when the body is not
 *   multipart/form-data with a boundary.
 */
function parseMultipart(body, contentType) {
	const boundary = boundaryOf(contentType);
	if (!boundary) return null;
	const delimiter = Buffer.from(`--${boundary}`);
	const parts = [];
	let start = body.indexOf(delimiter);
	while (start !== -1) {
		const afterDelimiter = start + delimiter.length;
		if (body.slice(afterDelimiter, afterDelimiter + 2).toString() === '--') break; // closing delimiter
		const headerEnd = body.indexOf('\r\n\r\n', afterDelimiter);
		if (headerEnd === -1) break;
		const next = body.indexOf(Buffer.from(`\r\n--${boundary}`), headerEnd + 4);
		if (next === -1) break;
		const headers = parseHeaders(body.slice(afterDelimiter, headerEnd).toString('utf8'));
		const disposition = headers['content-disposition'];
		parts.push({
			name: dispositionParam(disposition, 'name'),
			filename: dispositionParam(disposition, 'filename'),
			contentType: headers['content-type'],
			data: body.slice(headerEnd + 4, next),
		});
		start = next + 2;
	}
	return parts;
}

module.exports = { parseMultipart };
