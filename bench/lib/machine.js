'use strict';
/** What the report says about where and with what it ran. */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function packageVersion(name, from = ROOT) {
	try {
		const file = require.resolve(`${name}/package.json`, { paths: [from] });
		return JSON.parse(fs.readFileSync(file, 'utf8')).version;
	} catch {
		return undefined;
	}
}

function machine() {
	const cpus = os.cpus();
	const models = [...new Set(cpus.map((cpu) => cpu.model.trim()))];
	return {
		cpus: `${cpus.length} × ${models.join(' / ')}`,
		memory: `${(os.totalmem() / 2 ** 30).toFixed(1)} GiB total, ${(os.freemem() / 2 ** 30).toFixed(1)} GiB free at start`,
		os: `${os.type()} ${os.release()} (${os.arch()})`,
		loadavg: os.loadavg().map((v) => v.toFixed(2)).join(' '),
	};
}

function ownPackage() {
	const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	return { name: pkg.name, version: pkg.version };
}

function gitRevision() {
	try {
		// `git` itself also knows a worktree, whose .git is a file naming the real one.
		return require('node:child_process')
			.execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] })
			.trim();
	} catch {
		// no git on the PATH: read .git by hand below
	}
	try {
		const head = fs.readFileSync(path.join(ROOT, '.git', 'HEAD'), 'utf8').trim();
		if (!head.startsWith('ref: ')) return head.slice(0, 12);
		const ref = head.slice(5);
		const refFile = path.join(ROOT, '.git', ref);
		if (fs.existsSync(refFile)) return fs.readFileSync(refFile, 'utf8').trim().slice(0, 12);
		const packed = fs.readFileSync(path.join(ROOT, '.git', 'packed-refs'), 'utf8');
		const line = packed.split('\n').find((l) => l.endsWith(` ${ref}`));
		return line ? line.slice(0, 12) : undefined;
	} catch {
		return undefined;
	}
}

module.exports = { ROOT, machine, ownPackage, packageVersion, gitRevision };
