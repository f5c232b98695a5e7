'use strict';
/**
 * n8n in queue mode, as production installations scale it: one main process (editor, REST API,
 * activation of triggers, pollers), one worker (runs the executions) and N webhook processors
 * (answer production webhooks and hand the executions to the worker through Redis), behind a
 * round-robin HTTP load balancer that runs inside this Node process. Used by test/e2e-queue.
 *
 *   const { startQueueCluster } = require('./scripts/n8n-queue');
 *   const cluster = await startQueueCluster({ version: '2.40.7', webhookProcessors: 2 });
 *   await cluster.createCredential(...); await cluster.createWorkflow(...);   // main's REST helpers
 *   cluster.balancer.records;          // which processor served each /webhook/ request, with its status
 *   await cluster.restartWebhookProcessor(1);
 *   await cluster.stop();              // ends every process, drops the database, deletes the Redis keys
 *
 * Every cluster gets its own PostgreSQL database and its own Redis key prefixes (Bull queue,
 * pub/sub channels, cache, leader key), so several runs can share one PostgreSQL and one Redis;
 * stop() removes both, also after a failed start. PostgreSQL and Redis are reached with the `psql`
 * and `redis-cli` command-line clients (no npm dependency). Only loopback addresses are used.
 *
 * All processes share one N8N_USER_FOLDER, where startN8n (scripts/n8n-instance.js) installs the
 * packed package: every n8n process scans `<folder>/.n8n/nodes/node_modules` at start. Each
 * process has its own HTTP port, task-runner broker port, event-log file and output log.
 *
 * The balancer: `/webhook/…` (production webhooks) goes to the webhook processors, round-robin,
 * or to the processor `balancer.route(req)` returns; everything else goes to main. A processor
 * that does not accept the connection (stopped, restarting) is answered 502 and recorded as such:
 * no fail-over by default, so a delivery sent to a processor that is down fails as it would
 * behind a load balancer without health checks, and the sender's retries are what is tested.
 * `balancer.failover = true` instead tries the next processor when a connection is refused.
 */
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const http = require('node:http');
const os = require('node:os');
const path = require('node:path');

const { startN8n, freePort, N8N_VERSIONS } = require('./n8n-instance');
const { ensureN8n } = require('./n8n-runtime');
const { baseEnvironment, spawnN8n } = require('./n8n-process');

/** The encryption key every process of a cluster shares (credentials are decrypted by all). */
const QUEUE_ENCRYPTION_KEY = 'n8n-nodes-dynamic-qr-queue-local-only-key';

const defaultLog = (line) => process.stderr.write(`[n8n-queue] ${line}\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---------------------------------------------------------------------------------------------
// PostgreSQL and Redis through their command-line clients

function psql(pg, sql, { database = 'postgres' } = {}) {
	const result = spawnSync(
		'psql',
		[
			'-h',
			pg.host,
			'-p',
			String(pg.port),
			'-U',
			pg.user,
			'-d',
			database,
			'-v',
			'ON_ERROR_STOP=1',
			'-At',
			'-c',
			sql,
		],
		{ encoding: 'utf8', env: { ...process.env, PGCONNECT_TIMEOUT: '10' } },
	);
	if (result.status !== 0) {
		throw new Error(
			`psql failed (${result.status}): ${(result.stderr || result.error || '').toString().trim()}`,
		);
	}
	return result.stdout.trim();
}

function redisCli(redis, args) {
	const result = spawnSync('redis-cli', ['-h', redis.host, '-p', String(redis.port), ...args], {
		encoding: 'utf8',
	});
	if (result.status !== 0 || /^ERR/m.test(result.stdout)) {
		throw new Error(
			`redis-cli ${args[0]} failed (${result.status}): ${(result.stderr || result.stdout || '').trim()}`,
		);
	}
	return result.stdout.trim();
}

// Deletes, inside Redis, every key matching one pattern (SCAN + DEL in one script, so nothing
// crosses the wire key by key). Returns how many were deleted.
const DELETE_MATCHING = `
local cursor = "0"
local deleted = 0
repeat
	local answer = redis.call("SCAN", cursor, "MATCH", ARGV[1], "COUNT", 1000)
	cursor = answer[1]
	for _, key in ipairs(answer[2]) do
		redis.call("DEL", key)
		deleted = deleted + 1
	end
until cursor == "0"
return deleted`;

function deleteRedisKeys(redis, prefix) {
	let deleted = 0;
	// Bull and n8n's pub/sub, leader and cache keys start with the prefix; in cluster mode n8n
	// wraps it in a {hash tag}.
	for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
		deleted += Number(redisCli(redis, ['EVAL', DELETE_MATCHING, '0', pattern]) || 0);
	}
	return deleted;
}

function countRedisKeys(redis, prefix) {
	let count = 0;
	for (const pattern of [`${prefix}*`, `{${prefix}*`]) {
		const out = redisCli(redis, ['--scan', '--pattern', pattern]);
		count += out ? out.split('\n').filter(Boolean).length : 0;
	}
	return count;
}

// ---------------------------------------------------------------------------------------------
// The load balancer

/**
 * A round-robin HTTP balancer on 127.0.0.1. `targets()` is read per request so a restarted
 * processor keeps its place. Records every request it forwards.
 */
async function startBalancer({ mainPort, webhookPorts, log }) {
	const records = [];
	const firstProcessor = new Map(); // webhook-id -> index of the processor that answered it first
	let next = 0;

	const balancer = {
		url: '',
		/** `(req) => index | undefined`: the webhook processor for this request (undefined: round-robin). */
		route: undefined,
		/** When true, a refused connection is tried on the next processor instead of answering 502. */
		failover: false,
		/** One record per forwarded request: `{ seq, at, method, path, webhookId, target, processor, status, error, tried }`. */
		records,
		/** Records of `/webhook/` requests only. */
		webhookRecords: () => records.filter((record) => record.target === 'webhook'),
		/** Index of the processor that first answered a request with this `webhook-id` header. */
		firstProcessorOf: (webhookId) => firstProcessor.get(webhookId),
		/** Requests with this `webhook-id`, in order. */
		recordsOf: (webhookId) => records.filter((record) => record.webhookId === webhookId),
		close: undefined,
	};

	const forward = (port, req, body) =>
		new Promise((resolve) => {
			const upstream = http.request(
				{
					host: '127.0.0.1',
					port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, 'content-length': String(body.length) },
					agent: false, // a fresh connection each time: a restarted processor has no stale sockets
				},
				(response) => resolve({ response }),
			);
			upstream.on('error', (error) => resolve({ error }));
			upstream.setTimeout(60000, () => upstream.destroy(new Error('no answer within 60 s')));
			upstream.end(body);
		});

	const server = http.createServer(async (req, res) => {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		const pathname = req.url.split('?')[0];
		const isWebhook = pathname.startsWith('/webhook/');
		const webhookId = req.headers['webhook-id'];
		const record = {
			seq: records.length + 1,
			at: Date.now(),
			method: req.method,
			path: pathname,
			webhookId: typeof webhookId === 'string' ? webhookId : undefined,
			target: isWebhook ? 'webhook' : 'main',
			processor: isWebhook ? undefined : 'main',
			status: undefined,
			error: null,
			tried: [],
		};
		records.push(record);

		let outcome;
		if (isWebhook) {
			const ports = webhookPorts();
			let index;
			try {
				index = balancer.route ? balancer.route(req) : undefined;
			} catch (error) {
				log(`balancer.route threw: ${error.message}`);
			}
			if (index === undefined || index === null) {
				index = next % ports.length;
				next += 1;
			}
			for (let attempt = 0; attempt < ports.length; attempt += 1) {
				const current = (index + attempt) % ports.length;
				record.tried.push(current);
				record.processor = current;
				outcome = await forward(ports[current], req, body);
				if (!outcome.error || !balancer.failover || outcome.error.code !== 'ECONNREFUSED') break;
			}
		} else {
			outcome = await forward(mainPort, req, body);
		}

		if (outcome.error) {
			record.status = 502;
			record.error = outcome.error.code || outcome.error.message;
			res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `Bad gateway: ${record.error}` }));
			return;
		}
		const { response } = outcome;
		record.status = response.statusCode;
		if (isWebhook && record.webhookId && !firstProcessor.has(record.webhookId)) {
			firstProcessor.set(record.webhookId, record.processor);
		}
		res.writeHead(response.statusCode, response.headers);
		response.pipe(res);
		response.on('error', () => res.destroy());
	});
	server.keepAliveTimeout = 1000;
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	balancer.url = `http://127.0.0.1:${server.address().port}`;
	balancer.close = () =>
		new Promise((resolve) => {
			server.closeAllConnections?.();
			server.close(() => resolve());
		});
	return balancer;
}

// ---------------------------------------------------------------------------------------------
// Worker and webhook processes

/**
 * Starts `n8n <command>` (worker or webhook) under the watchdog and resolves once
 * `readyUrl` answers 200. Returns a handle with stop().
 */
async function startProcess({
	name,
	command,
	runtime,
	env,
	cwd,
	logFile,
	readyUrl,
	startTimeoutMs,
	log,
}) {
	fs.appendFileSync(
		logFile,
		`\n===== ${new Date().toISOString()} starting n8n ${command} (${name}) =====\n`,
	);
	const started = Date.now();
	const n8nProcess = spawnN8n({ runtime, command, cwd, env, logFile });
	const { stop } = n8nProcess;

	const deadline = started + startTimeoutMs;
	try {
		for (;;) {
			if (n8nProcess.exited) {
				const { code, signal } = n8nProcess.exited;
				throw new Error(
					`n8n ${command} (${name}) exited (code ${code}, signal ${signal}) while starting:\n${n8nProcess.tail()}`,
				);
			}
			if (Date.now() > deadline) {
				throw new Error(
					`n8n ${command} (${name}) was not ready within ${startTimeoutMs / 1000} s:\n${n8nProcess.tail()}`,
				);
			}
			try {
				const answer = await fetch(readyUrl, { signal: AbortSignal.timeout(5000) });
				if (answer.ok) break;
			} catch {
				// not listening yet
			}
			await sleep(500);
		}
	} catch (error) {
		await stop();
		error.message += `\n(log: ${logFile})`;
		throw error;
	}
	const seconds = (Date.now() - started) / 1000;
	log(`${name} (n8n ${command}) is ready after ${Math.round(seconds)} s`);
	return {
		name,
		command,
		logFile,
		startSeconds: seconds,
		get pid() {
			return n8nProcess.pid;
		},
		get running() {
			return !n8nProcess.exited;
		},
		logTail: (lines = 40) => n8nProcess.tail(lines),
		stop,
	};
}

// ---------------------------------------------------------------------------------------------
// The cluster

/**
 * Starts a queue-mode cluster with this package loaded. See the top of this file.
 *
 * @param {object} [options]
 * @param {string} [options.version] n8n version (default N8N_VERSIONS.current; 2.x)
 * @param {number} [options.webhookProcessors] how many `n8n webhook` processes (default 2)
 * @param {(line: string) => void} [options.log]
 * @param {Record<string,string>} [options.env] extra environment for every process
 * @param {{host?:string,port?:number,user?:string}} [options.postgres] default 127.0.0.1:5432, postgres
 * @param {{host?:string,port?:number}} [options.redis] default 127.0.0.1:6379
 * @param {number} [options.startTimeoutMs] per process (default 420000: the machine may be busy)
 * @param {number} [options.workerConcurrency] jobs the worker runs at once (default 10)
 */
async function startQueueCluster(options = {}) {
	const {
		version = N8N_VERSIONS.current,
		webhookProcessors = 2,
		log = defaultLog,
		env: extraEnv = {},
		startTimeoutMs = 420000,
		workerConcurrency = 10,
	} = options;
	const major = Number(version.split('.')[0]);
	if (major < 2) throw new Error('startQueueCluster supports n8n 2.x only');
	if (!(webhookProcessors >= 1)) throw new Error('webhookProcessors must be at least 1');
	const pg = { host: '127.0.0.1', port: 5432, user: 'postgres', ...(options.postgres ?? {}) };
	const redis = { host: '127.0.0.1', port: 6379, ...(options.redis ?? {}) };

	// One name for the database, the Bull prefix and n8n's Redis prefix: lower case (PostgreSQL
	// folds unquoted names), the test process's id plus randomness, so concurrent runs never meet.
	const clusterId = `n8nq_${process.pid}_${crypto.randomBytes(4).toString('hex')}`;
	const timings = {};
	const started = Date.now();
	/** What this resolves with; filled in once everything runs (the start helpers use it before). */
	const cluster = {};
	const processes = { worker: null, webhooks: [] };
	let main;
	let balancer;
	let userFolder;
	let databaseCreated = false;
	let stopped = false;

	// Removal of what this cluster made in PostgreSQL and Redis; also run synchronously if the
	// test process exits without stop() (plain Node; jest's sandboxed `process` skips it).
	function removeStorage() {
		const problems = [];
		if (databaseCreated) {
			try {
				psql(pg, `DROP DATABASE IF EXISTS "${clusterId}" WITH (FORCE)`);
				databaseCreated = false;
			} catch (error) {
				problems.push(error.message);
			}
		}
		try {
			deleteRedisKeys(redis, clusterId);
		} catch (error) {
			problems.push(error.message);
		}
		return problems;
	}
	const onExit = () => removeStorage();
	process.once('exit', onExit);

	async function stop({ keepFolder = false } = {}) {
		if (stopped) return;
		stopped = true;
		// Webhook processors and the worker first, then main (whose shutdown deregisters the
		// triggers' endpoints at the service).
		await Promise.all(processes.webhooks.filter(Boolean).map((processor) => processor.stop()));
		if (processes.worker) await processes.worker.stop();
		if (main) await main.stop({ keep: true });
		if (balancer) await balancer.close();
		const problems = removeStorage();
		process.removeListener('exit', onExit);
		if (userFolder && !keepFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		if (problems.length)
			throw new Error(`Cleaning up cluster ${clusterId}: ${problems.join('; ')}`);
	}

	try {
		// 1. Storage
		let phase = Date.now();
		psql(pg, `CREATE DATABASE "${clusterId}"`);
		databaseCreated = true;
		deleteRedisKeys(redis, clusterId); // nothing should be there; makes sure of it
		timings.storage = (Date.now() - phase) / 1000;

		// 2. Ports and the balancer (its URL is every process's N8N_WEBHOOK_URL)
		const runtime = await ensureN8n(version, { log });
		const mainPort = await freePort();
		const webhookPorts = [];
		for (let index = 0; index < webhookProcessors; index += 1) webhookPorts.push(await freePort());
		balancer = await startBalancer({ mainPort, webhookPorts: () => webhookPorts, log });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-queue-${version}-`));

		const queueEnv = {
			EXECUTIONS_MODE: 'queue',
			DB_TYPE: 'postgresdb',
			DB_POSTGRESDB_HOST: pg.host,
			DB_POSTGRESDB_PORT: String(pg.port),
			DB_POSTGRESDB_USER: pg.user,
			DB_POSTGRESDB_PASSWORD: '',
			DB_POSTGRESDB_DATABASE: clusterId,
			QUEUE_BULL_REDIS_HOST: redis.host,
			QUEUE_BULL_REDIS_PORT: String(redis.port),
			QUEUE_BULL_PREFIX: clusterId,
			// Pub/sub channels (commands between main, worker and webhook processors), the
			// leader key and the cache keys are named after this prefix: shared with other runs
			// they would cross-talk.
			N8N_REDIS_KEY_PREFIX: clusterId,
			N8N_ENCRYPTION_KEY: QUEUE_ENCRYPTION_KEY,
			N8N_WEBHOOK_URL: `${balancer.url}/`,
			N8N_EDITOR_BASE_URL: `http://127.0.0.1:${mainPort}/`,
			EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
			N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
			...extraEnv,
		};

		// 3. Main: builds and packs the package, installs it into the shared user folder, runs
		// the database migrations and sets up the owner.
		phase = Date.now();
		log(`Cluster ${clusterId}: starting main …`);
		main = await startN8n({
			version,
			port: mainPort,
			userFolder,
			log,
			startTimeoutMs,
			env: {
				...queueEnv,
				N8N_DISABLE_PRODUCTION_MAIN_PROCESS: 'true',
				// Manual runs ("Execute workflow") go to the worker as well, not only production ones.
				OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS: 'true',
				N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: path.join(userFolder, 'events', 'main.log'),
				...(options.mainEnv ?? {}),
			},
		});
		timings.main = (Date.now() - phase) / 1000;

		// 4. Worker and webhook processors, started together (they only read the database).
		phase = Date.now();
		const common = { ...baseEnvironment(runtime, userFolder, major), ...queueEnv };
		const startWorker = async () => {
			const port = await freePort();
			return startProcess({
				name: 'worker',
				command: 'worker',
				runtime,
				cwd: userFolder,
				logFile: path.join(userFolder, 'worker.log'),
				readyUrl: `http://127.0.0.1:${port}/healthz/readiness`,
				startTimeoutMs,
				log,
				env: {
					...common,
					N8N_PORT: String(await freePort()),
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(port),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					N8N_CONCURRENCY_PRODUCTION_LIMIT: String(workerConcurrency),
					N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: path.join(userFolder, 'events', 'worker.log'),
				},
			});
		};
		const brokerPorts = [];
		for (let index = 0; index < webhookProcessors; index += 1) brokerPorts.push(await freePort());
		const startWebhook = (index) =>
			startProcess({
				name: `webhook-${index}`,
				command: 'webhook',
				runtime,
				cwd: userFolder,
				logFile: path.join(userFolder, `webhook-${index}.log`),
				readyUrl: `http://127.0.0.1:${webhookPorts[index]}/healthz/readiness`,
				startTimeoutMs,
				log,
				env: {
					...common,
					N8N_PORT: String(webhookPorts[index]),
					N8N_RUNNERS_BROKER_PORT: String(brokerPorts[index]),
					N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: path.join(
						userFolder,
						'events',
						`webhook-${index}.log`,
					),
				},
			});
		cluster.startWebhook = startWebhook;
		const [worker, ...webhooks] = await Promise.all([
			startWorker(),
			...webhookPorts.map((_port, index) => startWebhook(index)),
		]);
		processes.worker = worker;
		processes.webhooks = webhooks;
		timings.workerAndWebhooks = (Date.now() - phase) / 1000;
		timings.total = (Date.now() - started) / 1000;
		log(
			`Cluster ${clusterId} is up after ${Math.round(timings.total)} s (main ${Math.round(timings.main)} s, then worker + ${webhookProcessors} webhook processors ${Math.round(timings.workerAndWebhooks)} s)`,
		);
		Object.assign(cluster, { webhookPorts, mainPort });
	} catch (error) {
		try {
			await stop({ keepFolder: true });
		} catch (cleanupError) {
			error.message += `\n${cleanupError.message}`;
		}
		if (userFolder) error.message += `\n(logs in ${userFolder})`;
		throw error;
	}

	return finishCluster();

	function finishCluster() {
		const readLog = (file) => {
			try {
				return fs.readFileSync(file, 'utf8');
			} catch {
				return '';
			}
		};
		// main's REST helpers (createCredential, createWorkflow, runWorkflow, activate, executions…)
		for (const [key, value] of Object.entries(main)) {
			if (typeof value === 'function' && !(key in cluster)) cluster[key] = value;
		}
		Object.assign(cluster, {
			id: clusterId,
			version,
			major,
			/** The balancer's URL: what triggers register and what senders call. */
			url: balancer.url,
			balancer,
			main,
			userFolder,
			database: clusterId,
			queuePrefix: clusterId,
			timings,
			get worker() {
				return processes.worker;
			},
			get webhookProcessors() {
				return processes.webhooks;
			},
			logFiles: () => ({
				main: main.logFile,
				worker: processes.worker.logFile,
				webhooks: processes.webhooks.map((processor) => processor.logFile),
			}),
			workerLog: () => readLog(processes.worker.logFile),
			mainLog: () => readLog(main.logFile),
			webhookLog: (index) => readLog(processes.webhooks[index].logFile),
			/**
			 * Whether the worker's log says it ran execution `id` to the end ("Worker finished
			 * execution <id> (job <n>)", n8n's own job-processor line).
			 */
			ranOnWorker: (id) =>
				readLog(processes.worker.logFile).includes(`Worker finished execution ${id} (job `),
			/** A production webhook URL through the balancer. */
			webhookUrl: (webhookId, webhookPath = 'webhook') =>
				`${balancer.url}/webhook/${webhookId}/${webhookPath}`,
			async stopWebhookProcessor(index) {
				const processor = processes.webhooks[index];
				if (processor?.running) await processor.stop();
			},
			async startWebhookProcessor(index) {
				if (processes.webhooks[index]?.running) return processes.webhooks[index];
				processes.webhooks[index] = await cluster.startWebhook(index);
				return processes.webhooks[index];
			},
			async restartWebhookProcessor(index) {
				await cluster.stopWebhookProcessor(index);
				return cluster.startWebhookProcessor(index);
			},
			/** How many Redis keys this cluster has now (its prefix). */
			redisKeyCount: () => countRedisKeys(redis, clusterId),
			/** Whether this cluster's database exists. */
			databaseExists: () =>
				psql(pg, `SELECT count(*) FROM pg_database WHERE datname = '${clusterId}'`) === '1',
			stop,
		});
		return cluster;
	}
}

module.exports = {
	startQueueCluster,
	startBalancer,
	deleteRedisKeys,
	countRedisKeys,
	QUEUE_ENCRYPTION_KEY,
};
