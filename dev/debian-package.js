'use strict';
/**
 * Installs one of Debian's packages with apt-get when a file it provides is missing (as root, as
 * in CI): Chromium for the editor tests, faketime for the tests that move a real n8n's clock.
 * These machines reach only npm and Debian's packages, so nothing is downloaded any other way.
 */
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');

function isPresent(file, mode) {
	try {
		fs.accessSync(file, mode);
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
 * Resolves to `file`, installing Debian's package `pkg` first when it is missing (`hint` says
 * what else to do without root). Synchronous work inside; async so callers can await it.
 */
async function ensureDebianPackage({ pkg, file, mode = fs.constants.R_OK, hint = '', log }) {
	if (isPresent(file, mode)) return file;
	const isRoot = typeof process.getuid === 'function' && process.getuid() === 0;
	if (!isRoot) {
		throw new Error(
			`${file} is missing, and installing it needs root. Run as root: apt-get update && apt-get install -y ${pkg}${hint}.`,
		);
	}
	const started = Date.now();
	aptGet(['update'], log);
	aptGet(['install', '-y', pkg], log);
	if (!isPresent(file, mode))
		throw new Error(`apt-get installed ${pkg}, but ${file} is still missing${hint}.`);
	log(`${pkg} installed in ${Math.round((Date.now() - started) / 1000)} s`);
	return file;
}

module.exports = { ensureDebianPackage };
