'use strict';
/**
 * A real n8n process with this package loaded as a community package, driven through n8n's own
 * REST API. Used by the end-to-end tests (test/e2e), `npm run dev`, the screenshots and the
 * benchmarks (bench/).
 *
 *   const { startN8n, N8N_VERSIONS } = require('./dev/n8n/instance');
 *   const n8n = await startN8n({ version: N8N_VERSIONS.current });
 *   const credential = await n8n.createCredential({ name: 'Dynamic QR account', type: 'dynamicQrApi', data });
 *   const workflow = await n8n.createWorkflow(require('../examples/…json'));
 *   const run = await n8n.runWorkflow(workflow.id);   // { id, status, runData, error, items(node) }
 *   await n8n.stop();
 *
 * Plain CommonJS for Node 20 (the test process); n8n itself runs as a child process on the Node 24
 * that runtime.js provisions next to it. Only loopback addresses are used. The pieces: runtime.js
 * (n8n and its Node), package.js (the packed package), process.js (the process under a
 * watchdog), rest-client.js (everything asked of n8n once it runs).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { freePort, portInUse } = require('../ports');
const { REPO_ROOT } = require('../paths');
const { ensureN8n, N8N_VERSIONS } = require('./runtime');
const { EXPECTED_NODE_TYPES, packPackage, installPackage } = require('./package');
const { baseEnvironment, spawnN8n } = require('./process');
const { createRestClient } = require('./rest-client');

const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Dynamic',
	lastName: 'QR',
	password: 'Dynamic-QR-try-1',
};
/** Fixed, so a kept user folder can be started again; it protects nothing but throwaway data. */
const DEFAULT_ENCRYPTION_KEY = 'n8n-nodes-dynamic-qr-local-only-key';

const defaultLog = (line) => process.stderr.write(`[n8n] ${line}\n`);

/** The environment of `n8n start` on this port; `extraEnv` wins over every default. */
async function mainEnvironment({ runtime, userFolder, major, port, webhookBaseUrl, extraEnv }) {
	const url = `http://127.0.0.1:${port}`;
	return {
		...baseEnvironment(runtime, userFolder, major),
		N8N_PORT: String(port),
		// 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there); 1.x reads WEBHOOK_URL.
		...(major >= 2
			? { N8N_WEBHOOK_URL: `${webhookBaseUrl}/` }
			: { WEBHOOK_URL: `${webhookBaseUrl}/` }),
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_ENCRYPTION_KEY: DEFAULT_ENCRYPTION_KEY,
		// Task runners on a port of their own, so several instances can run at once.
		N8N_RUNNERS_BROKER_PORT: String(await freePort()),
		DB_SQLITE_POOL_SIZE: '2',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		// 2.x publishes activations through an outbox polled every 15 s by default.
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
		...extraEnv,
	};
}

/**
 * Whether n8n's REST API is there: while it migrates the database, n8n answers every path with
 * 200 "n8n is starting up. Please wait"; only JSON settings mean it is.
 */
async function servesRestApi(url) {
	const settings = await fetch(`${url}/rest/settings`);
	const body = settings.ok ? await settings.text() : '';
	return body.startsWith('{') && Boolean(JSON.parse(body).data?.userManagement);
}

/** Fails, naming what is missing and `context()`, unless n8n lists every node type of ours. */
async function assertPackageLoaded(client, context) {
	const loaded = await client.nodeTypeNames();
	const missing = EXPECTED_NODE_TYPES.filter((name) => !loaded.has(name));
	if (missing.length) throw new Error(`Started without ${missing.join(', ')}: ${context()}`);
}

/**
 * Starts n8n `version` (provisioning it first when the cache lacks it) with this package loaded,
 * sets up the owner account and signs in. Resolves when n8n answers its REST API and lists our
 * node types, with the REST client's methods (rest-client.js) and the process's own. A start that
 * fails is logged and tried once more (tests, the bench, `npm run dev` and a queue cluster's main
 * all start n8n here), so one unlucky start on a loaded machine costs a start, not a whole run.
 *
 * @param {object} [options]
 * @param {string} [options.version] n8n version (default N8N_VERSIONS.current)
 * @param {number} [options.port] HTTP port on 127.0.0.1 (default: a free port)
 * @param {string} [options.webhookBaseUrl] where production webhooks are called (default: n8n's
 *   own URL; a queue cluster's balancer)
 * @param {Record<string,string>} [options.env] extra environment for n8n (wins over the defaults)
 * @param {(line: string) => void} [options.log] progress lines of this module (default: stderr)
 * @param {(line: string) => void} [options.n8nLog] also receives n8n's own output lines (always
 *   written to `logFile`)
 * @param {string} [options.packageDir] the package to load (default: this repository); it is
 *   built and packed once per process
 * @param {boolean} [options.build] run `npm run build` before packing (default true)
 * @param {string} [options.tarball] a packed package to load instead (e.g. a released version);
 *   it replaces whatever version the user folder had
 * @param {string} [options.userFolder] N8N_USER_FOLDER to use (default: a new temporary folder,
 *   removed by stop()); an existing one with an owner is signed in to instead of set up
 * @param {{email:string,password:string,firstName?:string,lastName?:string}} [options.owner]
 * @param {number} [options.startTimeoutMs] default 240000
 */
async function startN8n(options = {}) {
	try {
		return await startOnce(options);
	} catch (error) {
		(options.log ?? defaultLog)(`n8n did not start; starting it once more. ${error.message}`);
		return startOnce(options);
	}
}

async function startOnce(options) {
	const {
		version = N8N_VERSIONS.current,
		env: extraEnv = {},
		log = defaultLog,
		n8nLog,
		packageDir = REPO_ROOT,
		build = true,
		startTimeoutMs = 240000,
	} = options;
	const owner = { ...DEFAULT_OWNER, ...(options.owner ?? {}) };
	const major = Number(version.split('.')[0]);

	const runtime = await ensureN8n(version, { log });
	const tarball = options.tarball ?? (await packPackage(packageDir, { build, log }));

	const ownFolder = !options.userFolder;
	const userFolder = ownFolder
		? fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${version}-`))
		: path.resolve(options.userFolder);
	fs.mkdirSync(userFolder, { recursive: true });
	installPackage(tarball, userFolder);

	const port = options.port ?? (await freePort());
	if (await portInUse(port)) throw new Error(`Port ${port} on 127.0.0.1 is already in use`);
	const url = `http://127.0.0.1:${port}`;
	const webhookBaseUrl = options.webhookBaseUrl ?? url;
	const env = await mainEnvironment({ runtime, userFolder, major, port, webhookBaseUrl, extraEnv });

	const logFile = path.join(userFolder, 'n8n.log');
	log(`Starting n8n ${version} on ${url} (user folder ${userFolder}) …`);
	const started = Date.now();
	const n8nProcess = spawnN8n({
		runtime,
		command: 'start',
		label: `n8n ${version}`,
		cwd: userFolder,
		env,
		logFile,
		onLine: n8nLog,
	});
	await n8nProcess.started;

	async function stop({ keep = false } = {}) {
		await n8nProcess.stop();
		if (ownFolder && !keep) fs.rmSync(userFolder, { recursive: true, force: true });
	}

	const client = createRestClient({ url, major, webhookBaseUrl });
	try {
		await n8nProcess.waitUntilReady(() => servesRestApi(url), {
			timeoutMs: startTimeoutMs,
			what: `n8n ${version} to answer on ${url}`,
		});
		await client.signInAsOwner(owner);
		await assertPackageLoaded(client, () => `n8n ${version}:\n${n8nProcess.tail()}`);
		log(`n8n ${version} is up on ${url} after ${Math.round((Date.now() - started) / 1000)} s`);
	} catch (error) {
		await stop({ keep: true });
		error.message += `\n(n8n log: ${logFile})`;
		throw error;
	}

	// Getters stay getters only in this literal: spread into another object they would be read once.
	return {
		...client,
		/** The REST client itself, for whoever drives this n8n on behalf of others (queue.js). */
		client,
		version,
		port,
		userFolder,
		logFile,
		owner: { email: owner.email, password: owner.password },
		runtime,
		/** n8n's process id (also the id of the process group of n8n and its task runners). */
		get pid() {
			return n8nProcess.pid;
		},
		/** The watchdog's process id. */
		watchdogPid: n8nProcess.watchdogPid,
		/** The last lines n8n wrote (for failure messages). */
		logTail: (lines = 40) => n8nProcess.tail(lines),
		/** Whether the n8n process is still running. */
		get running() {
			return !n8nProcess.exited;
		},
		/** Resolves with `{ code, signal }` when the n8n process has ended, whoever ended it. */
		whenExited: n8nProcess.exitPromise,
		/** Stops n8n and its children; removes the temporary user folder unless `{ keep: true }`. */
		stop,
	};
}

module.exports = { startN8n, N8N_VERSIONS, EXPECTED_NODE_TYPES };
