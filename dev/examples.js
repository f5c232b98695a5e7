'use strict';
/** The example workflows (examples/*.json) as users import them. */
const fs = require('node:fs');
const path = require('node:path');

const { REPO_ROOT } = require('./paths');

const EXAMPLES_DIR = path.join(REPO_ROOT, 'examples');
/** The name every example gives its Dynamic QR API credential. */
const CREDENTIAL_NAME = 'Dynamic QR account';

/** The example workflows, by file name. */
function loadExamples() {
	return Object.fromEntries(
		fs
			.readdirSync(EXAMPLES_DIR)
			.filter((file) => file.endsWith('.json'))
			.sort()
			.map((file) => [file, JSON.parse(fs.readFileSync(path.join(EXAMPLES_DIR, file), 'utf8'))]),
	);
}

module.exports = { loadExamples, CREDENTIAL_NAME };
