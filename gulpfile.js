'use strict';
// tsc compiles the TypeScript; this copies what it does not: the node and credential icons.
const { src, dest } = require('gulp');

function copyIcons() {
	return src(['nodes/**/*.svg', 'credentials/**/*.svg'], { base: '.', encoding: false }).pipe(
		dest('dist'),
	);
}

exports.build = copyIcons;
exports.default = copyIcons;
