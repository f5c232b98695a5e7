'use strict';
/**
 * One holder at a time for work that must not run twice at once on this machine (installing n8n
 * into the cache, building dist/ in the checkout): the lock is a file created exclusively that
 * holds its owner's pid; the lock of a process that died is taken over.
 */
const fs = require('node:fs');

const { waitFor, giveUp } = require('./wait-for');

/** Creates the lock file for this process; false when another holder has it. */
function tryLock(lockFile) {
	try {
		fs.writeFileSync(lockFile, String(process.pid), { flag: 'wx' });
		return true;
	} catch (error) {
		if (error.code === 'EEXIST') return false;
		throw giveUp(error);
	}
}

/** The pid in the lock file, or undefined when the file is gone or not written yet. */
function lockOwner(lockFile) {
	try {
		const pid = Number(fs.readFileSync(lockFile, 'utf8'));
		return pid > 0 ? pid : undefined;
	} catch {
		return undefined;
	}
}

function isAlive(pid) {
	try {
		process.kill(pid, 0);
		return true;
	} catch (error) {
		return error.code === 'EPERM';
	}
}

/**
 * Runs `work` holding `lockFile`, after waiting (bounded by `timeoutMs`) for another holder to
 * finish; `what` names the work in the progress lines and the timeout message.
 */
async function withFileLock(
	lockFile,
	work,
	{ what, log = () => {}, timeoutMs = 30 * 60 * 1000, intervalMs = 2000 },
) {
	let attempts = 0;
	await waitFor(
		() => {
			if (tryLock(lockFile)) return true;
			const owner = lockOwner(lockFile);
			if (owner !== undefined && !isAlive(owner)) {
				fs.rmSync(lockFile, { force: true });
				return tryLock(lockFile);
			}
			// Said once a minute, so a long wait shows what it is waiting for.
			if (attempts++ % Math.ceil(60000 / intervalMs) === 0) {
				log(`Waiting for process ${owner ?? '(starting)'}, which is ${what} …`);
			}
			return false;
		},
		{ timeoutMs, intervalMs, what: () => `process ${lockOwner(lockFile)} to finish ${what}` },
	);
	try {
		return await work();
	} finally {
		fs.rmSync(lockFile, { force: true });
	}
}

module.exports = { withFileLock };
