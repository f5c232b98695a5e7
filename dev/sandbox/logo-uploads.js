'use strict';

const MAX_LOGO_BYTES = 2 * 1024 * 1024;

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

function looksLikeSvg(data) {
	// Skip an XML declaration, doctype and comments; the first element must be <svg.
	const head = data
		.slice(0, 4096)
		.toString('utf8')
		.replace(/^\uFEFF/, '');
	const stripped = head
		.replace(/<\?xml[\s\S]*?\?>|<!--[\s\S]*?-->|<!DOCTYPE[^>]*>/gi, '')
		.trimStart();
	return /^<svg[\s>]/i.test(stripped);
}

/** The logo's content type judged by its bytes, not by what the client claimed; null if unsupported. */
function detectLogoType(data) {
	if (data.length >= 8 && data.subarray(0, 8).equals(PNG_SIGNATURE)) return 'image/png';
	if (data.length >= 3 && data[0] === 0xff && data[1] === 0xd8 && data[2] === 0xff)
		return 'image/jpeg';
	if (looksLikeSvg(data)) return 'image/svg+xml';
	return null;
}

module.exports = { MAX_LOGO_BYTES, detectLogoType };
