'use strict';
/** Where things are in this repository, for tools that run from anywhere. */
const path = require('node:path');

const REPO_ROOT = path.resolve(__dirname, '..');

module.exports = {
	REPO_ROOT,
	/** The build output: what n8n loads and what the unit tests exercise. */
	DIST: path.join(REPO_ROOT, 'dist'),
};
