#!/usr/bin/env node
'use strict';
/**
 * Installs Debian's Chromium with apt-get when /usr/bin/chromium is missing (as root; see
 * dev/editor/chromium.js), so CI pays for it before the editor tests start:
 *
 *   node dev/cli/provision-browser.js
 */
const { ensureChromium } = require('../editor/chromium');

const log = (line) => process.stderr.write(`[browser] ${line}\n`);

ensureChromium({ log })
	.then((file) => log(`Chromium ready: ${file}`))
	.catch((error) => {
		log(error.message);
		process.exit(1);
	});
