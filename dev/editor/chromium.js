'use strict';
/**
 * Makes sure Debian's Chromium is installed, for the editor tests (test/e2e/editor.e2e.js) and
 * the README screenshots (dev/cli/screenshots.js); `node dev/cli/provision-browser.js` does it
 * alone. playwright-core drives it; Playwright's own browser downloads are never used (these
 * machines reach only npm and Debian's packages).
 *
 * Installing needs root (as in CI); otherwise it stops with a message saying what to run.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

const CHROMIUM_PATH = process.env.DYNAMIC_QR_CHROMIUM || '/usr/bin/chromium';

const defaultLog = (line) => process.stderr.write(`[browser] ${line}\n`);

function isExecutable(file) {
	try {
		fs.accessSync(file, fs.constants.X_OK);
		return true;
	} catch {
		return false;
	}
}

function aptGet(args, log) {
	log(`apt-get ${args.join(' ')} …`);
	const result = spawnSync('apt-get', args, {
		stdio: ['ignore', 'pipe', 'pipe'],
		encoding: 'utf8',
		// Without this apt may stop to ask about configuration files.
		env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' },
		maxBuffer: 64 * 1024 * 1024,
	});
	if (result.error) throw new Error(`apt-get could not run: ${result.error.message}`);
	if (result.status !== 0) {
		const tail = `${result.stdout}${result.stderr}`.trim().split('\n').slice(-15).join('\n');
		throw new Error(`apt-get ${args.join(' ')} failed (exit ${result.status}):\n${tail}`);
	}
}

/**
 * Resolves to the path of the Chromium executable, installing Debian's `chromium` package first
 * when it is missing. Synchronous work inside; async so callers can await it in beforeAll.
 */
async function ensureChromium({ log = defaultLog } = {}) {
	if (isExecutable(CHROMIUM_PATH)) return CHROMIUM_PATH;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (!isRoot) {
		throw new Error(
			`Chromium is not installed at ${CHROMIUM_PATH}, and installing it needs root. Run as root: apt-get update && apt-get install -y chromium (or point DYNAMIC_QR_CHROMIUM at a Chromium executable).`,
		);
	}
	const started = Date.now();
	aptGet(['update'], log);
	aptGet(['install', '-y', 'chromium'], log);
	if (!isExecutable(CHROMIUM_PATH)) {
		throw new Error(
			`apt-get installed the chromium package, but ${CHROMIUM_PATH} is still missing; set DYNAMIC_QR_CHROMIUM to the browser's path.`,
		);
	}
	log(`Chromium installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return CHROMIUM_PATH;
}

module.exports = { ensureChromium };
