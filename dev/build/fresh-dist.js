'use strict';
/**
 * Makes sure dist/ is the build of the sources as they are now, so a test run never exercises a
 * stale build: `npm test` builds first, but `npm run test:unit`, `npx jest` and the e2e configs
 * do not (jest's globalSetup calls ensureFreshDist). dist/ counts as stale when it is missing,
 * when a source under nodes/ or credentials/ (.ts, .svg, .json) is newer than the newest build
 * output, or when a source and its output do not pair up (a file moved, added or removed; a
 * move keeps the file's time, so times alone would miss it).
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { REPO_ROOT, DIST } = require('../paths');
const { withFileLock } = require('../file-lock');

const SOURCE_FOLDERS = ['nodes', 'credentials'];
const SOURCE = /\.(ts|svg|json)$/;
const OUTPUT = /\.(js|svg|json)$/;

/** Every file below `folder`, relative to `root`; none when the folder does not exist. */
function filesBelow(root, folder) {
	const found = [];
	const walk = (relative) => {
		let entries;
		try {
			entries = fs.readdirSync(path.join(root, relative), { withFileTypes: true });
		} catch (error) {
			if (error.code === 'ENOENT') return;
			throw error;
		}
		for (const entry of entries) {
			const child = path.join(relative, entry.name);
			if (entry.isDirectory()) walk(child);
			else found.push(child);
		}
	};
	walk(folder);
	return found;
}

const mtimeOf = (file) => fs.statSync(file).mtimeMs;

/** Why dist/ does not match the sources (a sentence), or undefined when it does. */
function staleReason({ root = REPO_ROOT, dist = DIST } = {}) {
	// What tsc and gulp emit; tsc's own bookkeeping (tsconfig.tsbuildinfo) is left out, since a
	// failed or no-emit run touches it too.
	const outputs = filesBelow(dist, '.').filter((file) => OUTPUT.test(file));
	if (outputs.length === 0) return 'dist/ is missing';
	const newestOutput = Math.max(...outputs.map((file) => mtimeOf(path.join(dist, file))));
	const sources = SOURCE_FOLDERS.flatMap((folder) => filesBelow(root, folder)).filter(
		(file) => SOURCE.test(file) && !file.endsWith('.d.ts'),
	);
	const changed = sources.find((file) => mtimeOf(path.join(root, file)) > newestOutput);
	if (changed) return `${changed} changed after the last build`;
	// tsc turns every .ts into a .js and gulp copies every icon; JSON is only emitted when
	// imported, so it is compared by time alone.
	const outputOf = (file) => file.replace(/\.ts$/, '.js');
	const built = new Set(outputs);
	const unbuilt = sources.find((file) => !file.endsWith('.json') && !built.has(outputOf(file)));
	if (unbuilt) return `${unbuilt} has no output in dist/`;
	const expected = new Set(sources.map(outputOf));
	const orphan = outputs.find((file) => !file.endsWith('.json') && !expected.has(file));
	if (orphan) return `dist/${orphan} has no source any more`;
	return undefined;
}

/**
 * Runs `npm run build` when dist/ is stale, saying why and that it built. Two test runs starting
 * at once in one checkout build once: the second waits for the first, then finds dist/ fresh.
 */
async function ensureFreshDist({ log = (line) => process.stdout.write(`${line}\n`) } = {}) {
	if (!staleReason()) return;
	const checkout = crypto.createHash('sha256').update(REPO_ROOT).digest('hex').slice(0, 12);
	const lockFile = path.join(os.tmpdir(), `n8n-nodes-dynamic-qr-build-${checkout}.lock`);
	await withFileLock(
		lockFile,
		async () => {
			const reason = staleReason();
			if (!reason) return;
			log(`${reason}: building (npm run build) …`);
			const started = Date.now();
			const result = spawnSync('npm', ['run', 'build', '--silent'], {
				cwd: REPO_ROOT,
				stdio: ['ignore', 'inherit', 'inherit'],
			});
			if (result.status !== 0) {
				throw new Error(`npm run build failed (exit ${result.status ?? result.signal})`);
			}
			log(`Built dist/ in ${Math.round((Date.now() - started) / 1000)} s.`);
		},
		{ what: 'building dist/', log, timeoutMs: 10 * 60 * 1000, intervalMs: 500 },
	);
}

module.exports = { ensureFreshDist, staleReason };
