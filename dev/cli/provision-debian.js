#!/usr/bin/env node
'use strict';
/**
 * Installs the Debian packages the end-to-end tests use, with apt-get when missing (as root), so
 * CI pays for them before the tests start: Chromium for the editor tests (dev/editor/chromium.js)
 * faketime for the tests that move a real n8n's clock (dev/n8n/movable-clock.js), and unzip,
 * Ghostscript and ZBar for the print pack's check (dev/print-files.js).
 *
 *   node dev/cli/provision-debian.js
 */
const { ensureChromium } = require('../editor/chromium');
const { movableClock } = require('../n8n/movable-clock');
const { ensurePrintTools } = require('../print-files');

const log = (line) => process.stderr.write(`[debian] ${line}\n`);

(async () => {
	log(`Chromium ready: ${await ensureChromium({ log })}`);
	(await movableClock({ log })).remove();
	log('faketime ready');
	await ensurePrintTools({ log });
	log('unzip, Ghostscript and ZBar ready');
})().catch((error) => {
	log(error.message);
	process.exit(1);
});
