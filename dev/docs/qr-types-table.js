'use strict';
/**
 * The README's table of QR code types, rendered from the built type table (QR_TYPES in
 * dist/nodes/DynamicQr/qrTypes.js), so the README cannot drift from what the node offers:
 * test/docs.test.js checks that the README contains exactly this table.
 */
const path = require('node:path');

const { DIST } = require('../paths');

/** The Markdown table of `types` (default: the built package's QR_TYPES). */
function qrTypesMarkdownTable(
	types = require(path.join(DIST, 'nodes/DynamicQr/qrTypes.js')).QR_TYPES,
) {
	const rows = types.map(
		(type) =>
			`| ${type.label} | \`${type.value}\` | ${type.fields.map((field) => `${field.name}${field.required ? '*' : ''} (${field.format})`).join(', ')} | ${type.plan === 'pro' ? 'Pro (smart redirects)' : 'all'} | ${type.static ? 'yes' : 'no'} |`,
	);
	return [
		'| Type | Value | Payload fields (`*` required) | Plan | Static |',
		'|---|---|---|---|---|',
		...rows,
	].join('\n');
}

module.exports = { qrTypesMarkdownTable };
