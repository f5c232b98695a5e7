'use strict';
/**
 * A clock a test moves for a real n8n process, as time moves (Debian's faketime; measured in
 * ../shared/ENVIRONMENT.md): n8n is started with `env`, and `set(seconds)` puts its clock that far
 * ahead of real time, within a second, while it runs; timers still fire in real time. The tests
 * move their own process's clock (the sandbox's) by the same offset (test/support/time.js).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureDebianPackage } = require('../debian-package');

/** Where Debian's faketime package puts the library on these (x86-64) machines. */
const LIBRARY = '/usr/lib/x86_64-linux-gnu/faketime/libfaketime.so.1';

async function movableClock({ seconds = 0, log }) {
	await ensureDebianPackage({ pkg: 'faketime', file: LIBRARY, log });
	const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-clock-'));
	const file = path.join(folder, 'offset');
	const set = (offset) => fs.writeFileSync(file, `+${Math.round(offset)}\n`);
	set(seconds);
	return {
		env: {
			LD_PRELOAD: LIBRARY,
			FAKETIME_TIMESTAMP_FILE: file,
			// Read again every second (not on every call, which would slow n8n down).
			FAKETIME_CACHE_DURATION: '1',
			FAKETIME_DONT_FAKE_MONOTONIC: '1',
		},
		set,
		remove: () => fs.rmSync(folder, { recursive: true, force: true }),
	};
}

module.exports = { movableClock };
