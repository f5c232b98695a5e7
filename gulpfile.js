'use strict';
// tsc compiles the TypeScript; this copies what it does not: the node and credential icons, and
// each node's codex file (<Node>.node.json: categories, search aliases and documentation links
// for n8n's nodes panel), which n8n reads from beside the compiled node.
const { src, dest } = require('gulp');

function copyAssets() {
	return src(['nodes/**/*.svg', 'nodes/**/*.node.json', 'credentials/**/*.svg'], {
		base: '.',
		encoding: false,
	}).pipe(dest('dist'));
}

exports.build = copyAssets;
exports.default = copyAssets;
