'use strict';
/**
 * This package as n8n gets it: `npm run build`, `npm pack`, and the tarball extracted into
 * `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-dynamic-qr`, the folder where n8n keeps
 * the community packages installed from its panel and scans at start. So what n8n loads is
 * exactly what npm would publish. Build and pack happen once per content: a tarball is kept in
 * `<tmp>/n8n-nodes-dynamic-qr-packs/<hash of the sources>/` for the next suite or process.
 */
const { spawnSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { REPO_ROOT } = require('../paths');

const PACKAGE_NAME = 'n8n-nodes-dynamic-qr';
/** The node types n8n must list once the package is loaded. */
const EXPECTED_NODE_TYPES = ['dynamicQr', 'dynamicQrTrigger', 'dynamicQrPollingTrigger'].map(
	(name) => `${PACKAGE_NAME}.${name}`,
);

const defaultLog = (line) => process.stderr.write(`[n8n] ${line}\n`);

function runChecked(command, args, cwd, log) {
	const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
	if (result.status !== 0) {
		const output = `${result.stdout ?? ''}${result.stderr ?? ''}`
			.trim()
			.split('\n')
			.slice(-30)
			.join('\n');
		log(output);
		throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status}) in ${cwd}`);
	}
	return result.stdout;
}

let packDir;

/**
 * The folder for this process's tarballs: `<tmp>/n8n-nodes-dynamic-qr-pack-<pid>`. Folders of
 * processes that no longer run are removed (an exit hook cannot be relied on inside jest).
 */
function ownPackDir() {
	if (packDir) return packDir;
	const prefix = `${PACKAGE_NAME}-pack-`;
	for (const name of fs.readdirSync(os.tmpdir())) {
		const pid = Number(name.startsWith(prefix) ? name.slice(prefix.length) : NaN);
		if (!Number.isInteger(pid) || pid === process.pid) continue;
		try {
			process.kill(pid, 0);
		} catch (error) {
			if (error.code === 'ESRCH')
				fs.rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
		}
	}
	packDir = path.join(os.tmpdir(), `${prefix}${process.pid}`);
	fs.mkdirSync(packDir, { recursive: true });
	process.once('exit', () => fs.rmSync(packDir, { recursive: true, force: true }));
	return packDir;
}

/** What the build reads: the top-level files (package.json, the lockfile, configs) and these. */
const BUILD_FOLDERS = ['nodes', 'credentials', 'icons'];

/**
 * Copies what the build reads into a private folder with a link to the package's node_modules, so
 * building and packing never race with anything else building in the checkout (its build starts
 * by removing dist/).
 */
function stagePackage(packageDir) {
	const stage = fs.mkdtempSync(path.join(os.tmpdir(), `${PACKAGE_NAME}-stage-`));
	for (const entry of fs.readdirSync(packageDir, { withFileTypes: true })) {
		const from = path.join(packageDir, entry.name);
		if (entry.isFile()) fs.copyFileSync(from, path.join(stage, entry.name));
		else if (entry.isDirectory() && BUILD_FOLDERS.includes(entry.name)) {
			fs.cpSync(from, path.join(stage, entry.name), { recursive: true });
		}
	}
	fs.symlinkSync(path.join(packageDir, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
	return stage;
}

/** A hash of every file the build reads, by path and content: the same sources, the same tarball. */
function sourceHash(packageDir) {
	const hash = crypto.createHash('sha256');
	const add = (relative) => {
		hash.update(`${relative}\0`);
		hash.update(fs.readFileSync(path.join(packageDir, relative)));
	};
	for (const entry of fs.readdirSync(packageDir, { withFileTypes: true }).sort(byName)) {
		if (entry.isFile()) add(entry.name);
		else if (entry.isDirectory() && BUILD_FOLDERS.includes(entry.name)) {
			const files = fs.readdirSync(path.join(packageDir, entry.name), { recursive: true });
			for (const file of files.sort()) {
				const relative = path.join(entry.name, file);
				if (fs.statSync(path.join(packageDir, relative)).isFile()) add(relative);
			}
		}
	}
	return hash.digest('hex').slice(0, 32);
}

const byName = (a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

const PACK_CACHE = path.join(os.tmpdir(), `${PACKAGE_NAME}-packs`);
const CACHE_DAYS = 1;

/** The tarball built from these sources before, if one is kept. */
function cachedPack(hash) {
	const folder = path.join(PACK_CACHE, hash);
	const [file] = fs.existsSync(folder) ? fs.readdirSync(folder) : [];
	return file && path.join(folder, file);
}

/** Keeps the tarball for these sources (atomically: a rename), and drops entries a day old. */
function keepPack(hash, tarball) {
	fs.mkdirSync(PACK_CACHE, { recursive: true });
	for (const name of fs.readdirSync(PACK_CACHE)) {
		const folder = path.join(PACK_CACHE, name);
		if (Date.now() - fs.statSync(folder).mtimeMs > CACHE_DAYS * 86_400_000)
			fs.rmSync(folder, { recursive: true, force: true });
	}
	const staging = fs.mkdtempSync(path.join(PACK_CACHE, '.new-'));
	fs.copyFileSync(tarball, path.join(staging, path.basename(tarball)));
	try {
		fs.renameSync(staging, path.join(PACK_CACHE, hash));
	} catch {
		// Another process kept the same sources first.
		fs.rmSync(staging, { recursive: true, force: true });
	}
}

/** `npm pack` of a package folder into this process's pack folder; resolves to npm's report. */
function npmPack(source, log) {
	const out = runChecked(
		'npm',
		['pack', '--json', '--pack-destination', ownPackDir(), '--loglevel=error'],
		source,
		log,
	);
	const [info] = JSON.parse(out.slice(out.indexOf('[')));
	return info;
}

const packs = new Map();

/**
 * Builds the package (in a private copy, see stagePackage) and packs it with npm; resolves to the
 * tarball's path. With `build: false` the package folder's existing dist/ is packed as it is.
 * A built tarball is reused while the sources are the same (sourceHash).
 */
function packPackage(packageDir = REPO_ROOT, { build = true, log = defaultLog } = {}) {
	const key = `${path.resolve(packageDir)}|${build}`;
	if (!packs.has(key)) {
		const packing = (async () => {
			const started = Date.now();
			const hash = build ? sourceHash(path.resolve(packageDir)) : undefined;
			const kept = hash && cachedPack(hash);
			if (kept) {
				log(`Using ${path.basename(kept)} packed before from the same sources (${hash})`);
				return kept;
			}
			let info;
			if (build) {
				const stage = stagePackage(path.resolve(packageDir));
				try {
					log(`Building ${PACKAGE_NAME} (npm run build) …`);
					runChecked('npm', ['run', 'build', '--silent'], stage, log);
					info = npmPack(stage, log);
				} finally {
					fs.rmSync(stage, { recursive: true, force: true });
				}
			} else {
				info = npmPack(path.resolve(packageDir), log);
			}
			log(
				`Packed ${info.filename} (${info.entryCount} files) in ${Math.round((Date.now() - started) / 1000)} s`,
			);
			const tarball = path.join(ownPackDir(), info.filename);
			if (hash) keepPack(hash, tarball);
			return tarball;
		})();
		packs.set(key, packing);
		packing.catch(() => packs.delete(key));
	}
	return packs.get(key);
}

/**
 * Extracts the tarball where n8n looks for installed community packages, replacing a version
 * installed there before (as an update from n8n's panel does: no file of the old version stays).
 */
function installPackage(tarball, userFolder) {
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const target = path.join(nodesDir, 'node_modules', PACKAGE_NAME);
	fs.rmSync(target, { recursive: true, force: true });
	fs.mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const { version } = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
	fs.writeFileSync(
		path.join(nodesDir, 'package.json'),
		JSON.stringify(
			{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } },
			null,
			2,
		),
	);
	return target;
}

module.exports = { EXPECTED_NODE_TYPES, packPackage, installPackage, sourceHash };
