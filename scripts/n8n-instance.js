'use strict';
/**
 * A real n8n process with this package loaded as a community package, driven through n8n's own
 * REST API. Used by the end-to-end tests (test/e2e), `npm run dev` and the benchmarks (bench/).
 *
 *   const { startN8n, N8N_VERSIONS } = require('./scripts/n8n-instance');
 *   const n8n = await startN8n({ version: N8N_VERSIONS.current });
 *   const credential = await n8n.createCredential({ name: 'Dynamic QR account', type: 'dynamicQrApi', data });
 *   const workflow = await n8n.createWorkflow(require('../examples/…json'));
 *   const run = await n8n.runWorkflow(workflow.id);   // { id, status, runData, error, items(node) }
 *   await n8n.stop();
 *
 * Plain CommonJS for Node 20 (the test process); n8n itself runs as a child process on the Node 24
 * that scripts/n8n-runtime.js provisions next to it. Only loopback addresses are used.
 *
 * How the package gets in: `npm run build`, `npm pack`, and the tarball extracted into
 * `<N8N_USER_FOLDER>/.n8n/nodes/node_modules/n8n-nodes-dynamic-qr`, the folder where n8n keeps the
 * community packages installed from its panel and scans at start. So what n8n loads is exactly what
 * npm would publish. Build and pack happen once per process (per package folder).
 */
const { spawnSync, execFileSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const { ensureN8n, N8N_VERSIONS } = require('./n8n-runtime');
const { baseEnvironment, spawnN8n } = require('./n8n-process');

const REPO_ROOT = path.resolve(__dirname, '..');
const PACKAGE_NAME = 'n8n-nodes-dynamic-qr';
const NODE_TYPE_PREFIX = `${PACKAGE_NAME}.`;
/** The node types n8n must list once the package is loaded. */
const EXPECTED_NODE_TYPES = ['dynamicQr', 'dynamicQrTrigger', 'dynamicQrPollingTrigger'].map(
	(name) => NODE_TYPE_PREFIX + name,
);
const DEFAULT_OWNER = {
	email: 'owner@example.com',
	firstName: 'Dynamic',
	lastName: 'QR',
	password: 'Dynamic-QR-try-1',
};
/** Fixed, so a kept user folder can be started again; it protects nothing but throwaway data. */
const DEFAULT_ENCRYPTION_KEY = 'n8n-nodes-dynamic-qr-local-only-key';
const FINISHED = new Set(['success', 'error', 'crashed', 'canceled', 'cancelled']);

const defaultLog = (line) => process.stderr.write(`[n8n] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A TCP port nobody listens on right now, on the loopback interface. */
function freePort() {
	return new Promise((resolve, reject) => {
		const server = net.createServer();
		server.unref();
		server.on('error', reject);
		server.listen(0, '127.0.0.1', () => {
			const { port } = server.address();
			server.close(() => resolve(port));
		});
	});
}

/** Whether something already listens on 127.0.0.1:port. */
function portInUse(port) {
	return new Promise((resolve) => {
		const socket = net.connect({ port, host: '127.0.0.1' });
		socket.once('connect', () => {
			socket.destroy();
			resolve(true);
		});
		socket.once('error', () => resolve(false));
	});
}

// ---------------------------------------------------------------------------------------------
// Build and pack, once per process

const packs = new Map();
let packDir;

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

/**
 * The folder for this process's tarballs: `<tmp>/n8n-nodes-dynamic-qr-pack-<pid>`. Folders of
 * processes that no longer run are removed (an exit hook cannot be relied on inside jest).
 */
function makePackDir() {
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
	const dir = path.join(os.tmpdir(), `${prefix}${process.pid}`);
	fs.mkdirSync(dir, { recursive: true });
	process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
	return dir;
}

/**
 * Copies what the build reads (top-level files, nodes/, credentials/) into a private folder with a
 * link to the package's node_modules, so building and packing never race with anything else
 * building in the checkout (its build starts by removing dist/).
 */
function stagePackage(packageDir) {
	const stage = fs.mkdtempSync(path.join(os.tmpdir(), `${PACKAGE_NAME}-stage-`));
	for (const entry of fs.readdirSync(packageDir, { withFileTypes: true })) {
		const from = path.join(packageDir, entry.name);
		if (entry.isFile()) fs.copyFileSync(from, path.join(stage, entry.name));
		else if (entry.isDirectory() && ['nodes', 'credentials', 'icons'].includes(entry.name)) {
			fs.cpSync(from, path.join(stage, entry.name), { recursive: true });
		}
	}
	fs.symlinkSync(path.join(packageDir, 'node_modules'), path.join(stage, 'node_modules'), 'dir');
	return stage;
}

/**
 * Builds the package (in a private copy, see stagePackage) and packs it with npm; resolves to the
 * tarball's path. With `build: false` the package folder's existing dist/ is packed as it is.
 * Cached per package folder for the life of the process; the files are removed when it exits.
 */
function packPackage(packageDir = REPO_ROOT, { build = true, log = defaultLog } = {}) {
	const key = `${path.resolve(packageDir)}|${build}`;
	if (!packs.has(key)) {
		packs.set(
			key,
			(async () => {
				const started = Date.now();
				if (!packDir) packDir = makePackDir();
				let source = path.resolve(packageDir);
				let out;
				if (build) {
					source = stagePackage(source);
					try {
						log(`Building ${PACKAGE_NAME} (npm run build) …`);
						runChecked('npm', ['run', 'build', '--silent'], source, log);
						out = runChecked(
							'npm',
							['pack', '--json', '--pack-destination', packDir, '--loglevel=error'],
							source,
							log,
						);
					} finally {
						fs.rmSync(source, { recursive: true, force: true });
					}
				} else {
					out = runChecked(
						'npm',
						['pack', '--json', '--pack-destination', packDir, '--loglevel=error'],
						source,
						log,
					);
				}
				const [info] = JSON.parse(out.slice(out.indexOf('[')));
				const tarball = path.join(packDir, info.filename);
				log(
					`Packed ${info.filename} (${info.entryCount} files) in ${Math.round((Date.now() - started) / 1000)} s`,
				);
				return tarball;
			})(),
		);
		packs.get(key).catch(() => packs.delete(key));
	}
	return packs.get(key);
}

/** Extracts the tarball where n8n looks for installed community packages. */
function installPackage(tarball, userFolder) {
	const target = path.join(userFolder, '.n8n', 'nodes', 'node_modules', PACKAGE_NAME);
	fs.mkdirSync(target, { recursive: true });
	execFileSync('tar', ['-xzf', tarball, '-C', target, '--strip-components=1']);
	const nodesDir = path.join(userFolder, '.n8n', 'nodes');
	const manifest = path.join(nodesDir, 'package.json');
	if (!fs.existsSync(manifest)) {
		const { version } = JSON.parse(fs.readFileSync(path.join(target, 'package.json'), 'utf8'));
		fs.writeFileSync(
			manifest,
			JSON.stringify(
				{ name: 'installed-nodes', private: true, dependencies: { [PACKAGE_NAME]: version } },
				null,
				2,
			),
		);
	}
	return target;
}

// ---------------------------------------------------------------------------------------------
// Execution data

function parseFlatted(value) {
	if (typeof value !== 'string') return value ?? null;
	// flatted is a dev dependency (n8n stores execution data with it).
	return require('flatted').parse(value);
}

/** What runWorkflow() and execution() answer for one execution record of n8n's REST API. */
function describeExecution(record) {
	const data = parseFlatted(record.data);
	const resultData = data?.resultData ?? {};
	const runData = resultData.runData ?? {};
	const error = resultData.error
		? {
				message: resultData.error.message,
				description: resultData.error.description ?? null,
				node: resultData.error.node?.name ?? null,
				httpCode: resultData.error.httpCode ?? null,
			}
		: null;
	return {
		id: String(record.id),
		workflowId: record.workflowId ?? record.workflowData?.id ?? null,
		status: record.status ?? (record.finished ? 'success' : 'unknown'),
		mode: record.mode,
		startedAt: record.startedAt,
		stoppedAt: record.stoppedAt,
		lastNodeExecuted: resultData.lastNodeExecuted ?? null,
		runData,
		error,
		data,
		/**
		 * The items a node put out: its `output`-th main output in its `run`-th run (both 0 by
		 * default), each `{ json, binary, pairedItem }`. Throws when the node did not run.
		 */
		items(nodeName, { run = 0, output = 0 } = {}) {
			const runs = runData[nodeName];
			if (!runs) {
				throw new Error(
					`Node "${nodeName}" did not run in execution ${record.id} (ran: ${Object.keys(runData).join(', ') || 'nothing'})${error ? `; error: ${error.message}` : ''}`,
				);
			}
			const task = runs[run];
			if (!task) throw new Error(`Node "${nodeName}" has no run ${run} in execution ${record.id}`);
			if (task.error) {
				throw new Error(
					`Node "${nodeName}" failed in execution ${record.id}: ${task.error.message}`,
				);
			}
			return task.data?.main?.[output] ?? [];
		},
	};
}

// ---------------------------------------------------------------------------------------------
// The instance

/**
 * Starts n8n `version` (provisioning it first when the cache lacks it) with this package loaded,
 * sets up the owner account and signs in. Resolves when n8n answers its REST API and lists our
 * node types.
 *
 * @param {object} [options]
 * @param {string} [options.version] n8n version (default N8N_VERSIONS.current)
 * @param {number} [options.port] HTTP port on 127.0.0.1 (default: a free port)
 * @param {Record<string,string>} [options.env] extra environment for n8n (wins over the defaults)
 * @param {(line: string) => void} [options.log] progress lines of this module (default: stderr)
 * @param {(line: string) => void} [options.n8nLog] also receives n8n's own output lines (always
 *   written to `logFile`)
 * @param {string} [options.packageDir] the package to load (default: this repository); it is
 *   built and packed once per process
 * @param {boolean} [options.build] run `npm run build` before packing (default true)
 * @param {string} [options.userFolder] N8N_USER_FOLDER to use (default: a new temporary folder,
 *   removed by stop()); an existing one with an owner is signed in to instead of set up
 * @param {{email:string,password:string,firstName?:string,lastName?:string}} [options.owner]
 * @param {number} [options.startTimeoutMs] default 240000
 */
async function startN8n(options = {}) {
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
	const tarball = await packPackage(packageDir, { build, log });

	const ownFolder = !options.userFolder;
	const userFolder = options.userFolder
		? path.resolve(options.userFolder)
		: fs.mkdtempSync(path.join(os.tmpdir(), `n8n-${version}-`));
	fs.mkdirSync(userFolder, { recursive: true });
	installPackage(tarball, userFolder);

	const port = options.port ?? (await freePort());
	if (await portInUse(port)) throw new Error(`Port ${port} on 127.0.0.1 is already in use`);
	const brokerPort = await freePort();
	const url = `http://127.0.0.1:${port}`;

	const env = {
		...baseEnvironment(runtime, userFolder, major),
		N8N_PORT: String(port),
		// 2.x reads N8N_WEBHOOK_URL (WEBHOOK_URL is deprecated there); 1.x reads WEBHOOK_URL.
		...(major >= 2 ? { N8N_WEBHOOK_URL: `${url}/` } : { WEBHOOK_URL: `${url}/` }),
		N8N_EDITOR_BASE_URL: `${url}/`,
		N8N_ENCRYPTION_KEY: DEFAULT_ENCRYPTION_KEY,
		// Task runners on a port of their own, so several instances can run at once.
		N8N_RUNNERS_BROKER_PORT: String(brokerPort),
		DB_SQLITE_POOL_SIZE: '2',
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		// 2.x publishes activations through an outbox polled every 15 s by default.
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
		...extraEnv,
	};

	const logFile = path.join(userFolder, 'n8n.log');
	log(`Starting n8n ${version} on ${url} (user folder ${userFolder}) …`);
	const started = Date.now();
	const n8nProcess = spawnN8n({
		runtime,
		command: 'start',
		cwd: userFolder,
		env,
		logFile,
		onLine: n8nLog,
	});
	await n8nProcess.started;

	const browserId = crypto.randomUUID();
	let cookie = '';

	async function request(method, pathname, body, { raw = false, expectJson = true } = {}) {
		const headers = { 'browser-id': browserId, accept: 'application/json' };
		if (cookie) headers.cookie = cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const send = () =>
			fetch(`${url}${pathname}`, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
				redirect: 'manual',
			});
		let response;
		try {
			response = await send();
		} catch (error) {
			// A kept-alive connection that n8n closed just as it was reused ("other side closed"):
			// the request never reached n8n, so it is sent once more on a new connection.
			if (error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
			response = await send();
		}
		for (const setCookie of response.headers.getSetCookie?.() ?? []) {
			const match = /^n8n-auth=([^;]*)/.exec(setCookie);
			if (match) cookie = `n8n-auth=${match[1]}`;
		}
		if (raw) return response;
		const text = await response.text();
		if (!response.ok) {
			const error = new Error(
				`n8n ${method} ${pathname} answered ${response.status}: ${text.slice(0, 2000)}`,
			);
			error.status = response.status;
			error.body = text;
			throw error;
		}
		if (!expectJson) return text;
		try {
			return text ? JSON.parse(text) : null;
		} catch {
			return text;
		}
	}

	async function stop({ keep = false } = {}) {
		await n8nProcess.stop();
		if (ownFolder && !keep) fs.rmSync(userFolder, { recursive: true, force: true });
	}

	try {
		// 1. HTTP up
		const deadline = started + startTimeoutMs;
		for (;;) {
			if (n8nProcess.exited) {
				const { code, signal } = n8nProcess.exited;
				throw new Error(
					`n8n ${version} exited (code ${code}, signal ${signal}) while starting:\n${n8nProcess.tail()}`,
				);
			}
			if (Date.now() > deadline) {
				throw new Error(
					`n8n ${version} did not answer within ${startTimeoutMs / 1000} s:\n${n8nProcess.tail()}`,
				);
			}
			try {
				// While it migrates the database, n8n answers every path with 200 "n8n is starting
				// up. Please wait": only JSON settings mean the REST API is there.
				const settings = await fetch(`${url}/rest/settings`);
				const body = settings.ok ? await settings.text() : '';
				if (body.startsWith('{') && JSON.parse(body).data?.userManagement) break;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}

		// 2. Owner account (or sign in when the folder already has one)
		const settings = (await request('GET', '/rest/settings')).data;
		const needsSetup = settings?.userManagement?.showSetupOnFirstLoad !== false;
		if (needsSetup) {
			await request('POST', '/rest/owner/setup', {
				email: owner.email,
				firstName: owner.firstName,
				lastName: owner.lastName,
				password: owner.password,
			});
		} else {
			await request(
				'POST',
				'/rest/login',
				major >= 2
					? { emailOrLdapLoginId: owner.email, password: owner.password }
					: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
			);
		}
		if (!cookie) throw new Error('n8n set no n8n-auth cookie when signing in');

		// 3. Our node types are loaded
		const types = await request('GET', '/types/nodes.json');
		const names = new Set((Array.isArray(types) ? types : []).map((type) => type.name));
		const missing = EXPECTED_NODE_TYPES.filter((name) => !names.has(name));
		if (missing.length) {
			throw new Error(
				`n8n ${version} started without ${missing.join(', ')}; see ${logFile}:\n${n8nProcess.tail()}`,
			);
		}
		log(`n8n ${version} is up on ${url} after ${Math.round((Date.now() - started) / 1000)} s`);
	} catch (error) {
		await stop({ keep: true });
		error.message += `\n(n8n log: ${logFile})`;
		throw error;
	}

	/** Credentials created through this instance, by name, for createWorkflow's mapping. */
	const credentialsByName = new Map();

	const instance = {
		url,
		version,
		major,
		port,
		/** n8n's process id (also the id of the process group of n8n and its task runners). */
		get pid() {
			return n8nProcess.pid;
		},
		/** The watchdog's process id. */
		watchdogPid: n8nProcess.watchdogPid,
		userFolder,
		logFile,
		owner: { email: owner.email, password: owner.password },
		runtime,

		/**
		 * A request to n8n's HTTP API as the signed-in owner. `path` is from n8n's root (e.g.
		 * '/rest/workflows'). Resolves with the parsed JSON answer as n8n sends it (most REST
		 * answers wrap their payload in `data`); throws on a non-2xx answer with `status` and
		 * `body` set on the error.
		 */
		rest: (method, pathname, body) => request(method, pathname, body),

		/** A raw fetch Response (for binary downloads and webhooks). */
		fetch: (method, pathname, body) => request(method, pathname, body, { raw: true }),

		/** Creates a credential: `{ name, type, data }` -> `{ id, name }`. */
		async createCredential({ name, type, data }) {
			const answer = await request('POST', '/rest/credentials', { name, type, data });
			const record = answer.data ?? answer;
			credentialsByName.set(`${type}\u0000${name}`, { id: String(record.id), name: record.name });
			return { id: String(record.id), name: record.name };
		},

		/**
		 * Runs the credential's connection test as the editor's Test button does (n8n tests a saved
		 * credential, with the data given): `{ id, name, type, data }` -> `{ status: 'OK' | 'Error',
		 * message }`. Without an `id` the credential is created first, as the editor saves before
		 * testing.
		 */
		async testCredential({ id, name, type, data }) {
			const credentialId = id ?? (await instance.createCredential({ name, type, data })).id;
			const answer = await request('POST', '/rest/credentials/test', {
				credentials: { id: credentialId, name, type, data },
			});
			return answer.data ?? answer;
		},

		/**
		 * Imports a workflow (the JSON of examples/*.json or of n8n's "Download") as a new, inactive
		 * workflow -> `{ id, versionId, name, webhookIds }`.
		 *
		 * Credentials are referenced by name: every `node.credentials[type] = { name }` (an `id` in
		 * the file is ignored) is bound to the credential of that type and name created through
		 * createCredential() on this instance; `options.credentials` (`{ [name]: id }`) adds or
		 * overrides bindings. An unknown name is an error, not a silently broken workflow.
		 *
		 * Every node that has a `webhookId` gets a fresh one (as n8n's editor does on paste), so
		 * the same example can be imported twice without webhook path conflicts; `webhookIds`
		 * maps node names to them. `options.keepWebhookIds` keeps those of the file.
		 * `options.name` renames the workflow; `options.patch(nodesByName)` may edit nodes first.
		 */
		async createWorkflow(workflowJson, opts = {}) {
			const workflow = JSON.parse(JSON.stringify(workflowJson));
			const nodes = workflow.nodes ?? [];
			const webhookIds = {};
			for (const node of nodes) {
				for (const [type, reference] of Object.entries(node.credentials ?? {})) {
					const name = reference?.name;
					const id = opts.credentials?.[name] ?? credentialsByName.get(`${type}\u0000${name}`)?.id;
					if (!id) {
						throw new Error(
							`Workflow "${workflow.name}": node "${node.name}" uses the ${type} credential "${name}", which was not created on this n8n (createCredential first, or pass options.credentials)`,
						);
					}
					node.credentials[type] = { id, name };
				}
				if (node.webhookId !== undefined && !opts.keepWebhookIds)
					node.webhookId = crypto.randomUUID();
				if (node.webhookId) webhookIds[node.name] = node.webhookId;
			}
			if (opts.patch) opts.patch(Object.fromEntries(nodes.map((node) => [node.name, node])));
			const body = {
				name: opts.name ?? workflow.name ?? 'Imported workflow',
				nodes,
				connections: workflow.connections ?? {},
				settings: workflow.settings ?? { executionOrder: 'v1' },
				pinData: workflow.pinData ?? {},
				active: false,
			};
			const answer = await request('POST', '/rest/workflows', body);
			const record = answer.data ?? answer;
			return { id: String(record.id), versionId: record.versionId, name: record.name, webhookIds };
		},

		/** The stored workflow (`data` of GET /rest/workflows/:id). */
		async workflow(id) {
			const answer = await request('GET', `/rest/workflows/${id}`);
			return answer.data ?? answer;
		},

		/**
		 * Runs a workflow as the editor's "Execute workflow" button does, from its manual trigger
		 * (or `triggerName`), and waits until the execution has finished. Resolves with the
		 * execution read back from n8n: `{ id, status, runData, error, items(nodeName) }`.
		 * A finished execution with status 'error' resolves too: check `status` / `error`.
		 */
		async runWorkflow(id, { triggerName, timeoutMs = 180000 } = {}) {
			const workflowData = await instance.workflow(id);
			const trigger =
				triggerName ??
				workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name;
			if (!trigger) throw new Error(`Workflow ${id} has no manual trigger; pass triggerName`);
			// 2.x reads the stored workflow and validates the body (ManualRunDto, unknown keys
			// stripped); 1.x runs the workflowData sent in the body.
			const body =
				major >= 2
					? { triggerToStartFrom: { name: trigger } }
					: { workflowData, triggerToStartFrom: { name: trigger } };
			const answer = await request('POST', `/rest/workflows/${id}/run`, body);
			const started = answer.data ?? answer;
			if (!started?.executionId) {
				throw new Error(
					`n8n did not start an execution of workflow ${id}: ${JSON.stringify(answer)}`,
				);
			}
			return instance.waitForExecution(started.executionId, { timeoutMs });
		},

		/** Polls an execution until it has finished; resolves like execution(). */
		async waitForExecution(executionId, { timeoutMs = 180000 } = {}) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				let record;
				try {
					record = (await request('GET', `/rest/executions/${executionId}`)).data;
				} catch (error) {
					if (error.status !== 404) throw error; // not saved yet
				}
				if (record && (FINISHED.has(record.status) || (record.finished && record.stoppedAt))) {
					return describeExecution(record);
				}
				if (Date.now() > deadline) {
					throw new Error(
						`Execution ${executionId} did not finish within ${timeoutMs / 1000} s (status ${record?.status})`,
					);
				}
				await sleep(250);
			}
		},

		/**
		 * Publishes (activates) a workflow: its triggers register their webhooks. n8n 1.x does it
		 * while answering; n8n 2.x queues the publication (an outbox) and reports it at
		 * `/rest/workflows/:id/publication-status`, which is polled here until it has settled.
		 * Rejects with the trigger's error message when activation failed.
		 */
		async activate(id, { timeoutMs = 60000 } = {}) {
			const { versionId } = await instance.workflow(id);
			const answer = await request('POST', `/rest/workflows/${id}/activate`, { versionId });
			if (major >= 2) {
				const status = await instance.publicationStatus(id, {
					until: (state) => !['in_progress', 'not_published'].includes(state.status),
					timeoutMs,
				});
				if (status.status !== 'published') {
					const reasons = (status.triggers ?? [])
						.map((trigger) => trigger.errorMessage)
						.filter(Boolean);
					throw new Error(
						`Publishing workflow ${id} ${status.status}: ${reasons.join('; ') || 'no reason given'}`,
					);
				}
			}
			return answer.data ?? answer;
		},

		/** Unpublishes (deactivates) a workflow and, on 2.x, waits until that has settled. */
		async deactivate(id, { timeoutMs = 60000 } = {}) {
			const answer = await request('POST', `/rest/workflows/${id}/deactivate`, {});
			if (major >= 2) {
				await instance.publicationStatus(id, {
					until: (state) => state.status === 'not_published',
					timeoutMs,
				});
			}
			return answer.data ?? answer;
		},

		/**
		 * n8n 2.x only: `{ status: 'in_progress' | 'published' | 'partial' | 'failed' |
		 * 'not_published', triggers }`; with `until`, polls until it returns true.
		 */
		async publicationStatus(id, { until, timeoutMs = 60000 } = {}) {
			const deadline = Date.now() + timeoutMs;
			for (;;) {
				const answer = await request('GET', `/rest/workflows/${id}/publication-status`);
				const status = answer.data ?? answer;
				if (!until || until(status)) return status;
				if (Date.now() > deadline) {
					throw new Error(
						`Publication of workflow ${id} did not settle within ${timeoutMs / 1000} s: ${JSON.stringify(status)}`,
					);
				}
				await sleep(200);
			}
		},

		/**
		 * Summaries of a workflow's executions, newest first: `{ id, status, mode, startedAt,
		 * stoppedAt, workflowId }`.
		 */
		async executions(workflowId, { limit = 250 } = {}) {
			const filter = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }));
			const answer = await request('GET', `/rest/executions?filter=${filter}&limit=${limit}`);
			const results = answer.data?.results ?? answer.data ?? [];
			return results.map((execution) => ({
				id: String(execution.id),
				status: execution.status,
				mode: execution.mode,
				startedAt: execution.startedAt,
				stoppedAt: execution.stoppedAt,
				workflowId: String(execution.workflowId),
			}));
		},

		/** One execution, parsed: `{ id, status, runData, error, data, items(nodeName) }`. */
		async execution(id) {
			return describeExecution((await request('GET', `/rest/executions/${id}`)).data);
		},

		/**
		 * The bytes of a binary property of an output item. Inline data (binary mode "default")
		 * is decoded; data kept in n8n's binary store (the default "filesystem" mode) is read
		 * through n8n's REST endpoint `GET /rest/binary-data`.
		 */
		async binary(binaryData) {
			if (!binaryData) throw new Error('No binary data');
			if (!binaryData.id) return Buffer.from(binaryData.data, 'base64');
			const query = new URLSearchParams({ id: binaryData.id, action: 'download' });
			const response = await request('GET', `/rest/binary-data?${query}`, undefined, { raw: true });
			if (!response.ok) {
				throw new Error(
					`n8n GET /rest/binary-data answered ${response.status}: ${await response.text()}`,
				);
			}
			return Buffer.from(await response.arrayBuffer());
		},

		/** A production webhook URL: `WEBHOOK_URL` + `webhook/<webhookId>/<path>`. */
		webhookUrl(webhookId, webhookPath = 'webhook') {
			return `${url}/webhook/${webhookId}/${webhookPath}`;
		},

		/** The last lines n8n wrote (for failure messages). */
		logTail: (lines = 40) => n8nProcess.tail(lines),

		/** Whether the n8n process is still running. */
		get running() {
			return !n8nProcess.exited;
		},

		/** Stops n8n and its children; removes the temporary user folder unless `{ keep: true }`. */
		stop,
	};
	return instance;
}

module.exports = {
	startN8n,
	packPackage,
	freePort,
	N8N_VERSIONS,
	EXPECTED_NODE_TYPES,
	DEFAULT_OWNER,
};
