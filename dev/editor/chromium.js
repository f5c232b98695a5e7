'use strict';
/**
 * Makes sure Debian's Chromium is installed, for the editor tests (test/e2e/editor.e2e.js) and
 * the README screenshots (dev/cli/screenshots.js); `node dev/cli/provision-debian.js` does it
 * alone. playwright-core drives it; Playwright's own browser downloads are never used (these
 * machines reach only npm and Debian's packages).
 *
 * Installing needs root (as in CI); otherwise it stops with a message saying what to run.
 */
const fs = require('node:fs');

const { ensureDebianPackage } = require('../debian-package');

const CHROMIUM_PATH = process.env.DYNAMIC_QR_CHROMIUM || '/usr/bin/chromium';

const defaultLog = (line) => process.stderr.write(`[browser] ${line}\n`);

/** Resolves to the path of the Chromium executable, installing Debian's `chromium` when missing. */
const ensureChromium = ({ log = defaultLog } = {}) =>
	ensureDebianPackage({
		pkg: 'chromium',
		file: CHROMIUM_PATH,
		mode: fs.constants.X_OK,
		hint: ' (or point DYNAMIC_QR_CHROMIUM at a Chromium executable)',
		log,
	});

module.exports = { ensureChromium };
