'use strict';
const { PNG } = require('pngjs');
const jsQR = require('jsqr');

/** Reads a PNG and decodes its QR code: `{ width, height, text }`, `text` null when none is found. */
function decodePng(buffer) {
	const { width, height, data } = PNG.sync.read(buffer);
	const code = jsQR(
		new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
		width,
		height,
	);
	return { width, height, text: code ? code.data : null };
}

module.exports = { decodePng };
