'use strict';
/**
 * n8n in queue mode, as production installations scale it: one main process (editor, REST API,
 * activation of triggers, pollers), one worker (runs the executions) and N webhook processors
 * (answer production webhooks and hand the executions to the worker through Redis), behind a
 * round-robin HTTP load balancer that runs inside this Node process (balancer.js). Used by
 * test/e2e-queue and the queue-mode benchmark.
 *
 *   const { startQueueCluster } = require('./dev/n8n/queue');
 *   const cluster = await startQueueCluster({ version: N8N_VERSIONS.current, webhookProcessors: 2 });
 *   await cluster.createCredential(...); await cluster.createWorkflow(...);   // main's REST client
 *   cluster.balancer.records;          // which processor served each /webhook/ request, with its status
 *   await cluster.restartWebhookProcessor(1);
 *   await cluster.stop();              // ends every process, drops the database, deletes the Redis keys
 *
 * Every cluster gets its own PostgreSQL database and its own Redis key prefixes (Bull queue,
 * pub/sub channels, cache, leader key), so several runs can share one PostgreSQL and one Redis;
 * stop() removes both, also after a failed start (queue-storage.js). Only loopback addresses are
 * used.
 *
 * All processes share one N8N_USER_FOLDER, where startN8n (instance.js) installs the packed
 * package: every n8n process scans `<folder>/.n8n/nodes/node_modules` at start. Each process has
 * its own HTTP port, task-runner broker port, event-log file and output log.
 */
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { freePort } = require('../ports');
const { startN8n, N8N_VERSIONS } = require('./instance');
const { ensureN8n } = require('./runtime');
const { baseEnvironment, spawnN8n } = require('./process');
const { startBalancer } = require('./balancer');
const { clusterStorage } = require('./queue-storage');
const { waitFor } = require('../wait-for');

/** The encryption key every process of a cluster shares (credentials are decrypted by all). */
const QUEUE_ENCRYPTION_KEY = 'n8n-nodes-dynamic-qr-queue-local-only-key';

const defaultLog = (line) => process.stderr.write(`[n8n-queue] ${line}\n`);

const readLog = (file) => {
	try {
		return fs.readFileSync(file, 'utf8');
	} catch {
		return '';
	}
};

/**
 * Starts `n8n <command>` (worker or webhook) under the watchdog and resolves once `readyUrl`
 * answers 200. Returns a handle with stop().
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
	const n8nProcess = spawnN8n({
		runtime,
		command,
		label: `n8n ${command} (${name})`,
		cwd,
		env,
		logFile,
	});
	try {
		await n8nProcess.waitUntilReady(
			async () => (await fetch(readyUrl, { signal: AbortSignal.timeout(5000) })).ok,
			{ timeoutMs: startTimeoutMs, what: `${name} (n8n ${command}) to be ready at ${readyUrl}` },
		);
	} catch (error) {
		await n8nProcess.stop();
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
		stop: n8nProcess.stop,
	};
}

/**
 * The environment every process of the cluster shares: the queue on Redis, the database on
 * PostgreSQL, one encryption key, and the balancer as the public webhook URL.
 */
function queueEnvironment({ name, pg, redis, balancerUrl, mainPort, extraEnv }) {
	return {
		EXECUTIONS_MODE: 'queue',
		DB_TYPE: 'postgresdb',
		DB_POSTGRESDB_HOST: pg.host,
		DB_POSTGRESDB_PORT: String(pg.port),
		DB_POSTGRESDB_USER: pg.user,
		DB_POSTGRESDB_PASSWORD: '',
		DB_POSTGRESDB_DATABASE: name,
		QUEUE_BULL_REDIS_HOST: redis.host,
		QUEUE_BULL_REDIS_PORT: String(redis.port),
		QUEUE_BULL_PREFIX: name,
		// Pub/sub channels (commands between main, worker and webhook processors), the leader key
		// and the cache keys are named after this prefix: shared with other runs they would
		// cross-talk.
		N8N_REDIS_KEY_PREFIX: name,
		N8N_ENCRYPTION_KEY: QUEUE_ENCRYPTION_KEY,
		N8N_WEBHOOK_URL: `${balancerUrl}/`,
		N8N_EDITOR_BASE_URL: `http://127.0.0.1:${mainPort}/`,
		EXECUTIONS_DATA_SAVE_MANUAL_EXECUTIONS: 'true',
		N8N_WORKFLOW_PUBLICATION_OUTBOX_POLL_INTERVAL_MS: '500',
		...extraEnv,
	};
}

/**
 * How the worker and the webhook processors of one cluster are started: each with its own ports,
 * log and event log in the shared user folder. A webhook processor keeps its ports across
 * restarts, so the balancer finds it where it was.
 */
async function processStarters({
	runtime,
	userFolder,
	env,
	webhookPorts,
	workerConcurrency,
	startTimeoutMs,
	log,
}) {
	const optionsFor = (name, command) => ({
		name,
		command,
		runtime,
		cwd: userFolder,
		logFile: path.join(userFolder, `${name}.log`),
		startTimeoutMs,
		log,
	});
	const eventLog = (name) => path.join(userFolder, 'events', `${name}.log`);
	const brokerPorts = [];
	while (brokerPorts.length < webhookPorts.length) brokerPorts.push(await freePort());
	return {
		async startWorker() {
			const healthPort = await freePort();
			return startProcess({
				...optionsFor('worker', 'worker'),
				readyUrl: `http://127.0.0.1:${healthPort}/healthz/readiness`,
				env: {
					...env,
					N8N_PORT: String(await freePort()),
					N8N_RUNNERS_BROKER_PORT: String(await freePort()),
					QUEUE_HEALTH_CHECK_ACTIVE: 'true',
					QUEUE_HEALTH_CHECK_PORT: String(healthPort),
					N8N_WORKER_SERVER_ADDRESS: '127.0.0.1',
					N8N_CONCURRENCY_PRODUCTION_LIMIT: String(workerConcurrency),
					N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: eventLog('worker'),
				},
			});
		},
		async startWebhook(index) {
			const processor = await startProcess({
				...optionsFor(`webhook-${index}`, 'webhook'),
				readyUrl: `http://127.0.0.1:${webhookPorts[index]}/healthz/readiness`,
				env: {
					...env,
					// The readiness line below is logged at info: a quieter level (the bench's warn)
					// would never show it.
					...(['warn', 'error', 'silent'].includes(env.N8N_LOG_LEVEL)
						? { N8N_LOG_LEVEL: 'info' }
						: {}),
					N8N_PORT: String(webhookPorts[index]),
					N8N_RUNNERS_BROKER_PORT: String(brokerPorts[index]),
					N8N_EVENTBUS_LOGWRITER_LOGFULLPATH: eventLog(`webhook-${index}`),
				},
			});
			// n8n is ready by /healthz/readiness before it has finished starting, and a delivery
			// it takes meanwhile can start twice (docs/n8n-behaviours.md, 12): wait for its word.
			await waitFor(
				() =>
					readLog(processor.logFile)
						.split(`starting n8n webhook (webhook-${index})`)
						.pop()
						.includes('Webhook listener waiting for requests.'),
				{ what: `webhook-${index} to wait for requests`, timeoutMs: startTimeoutMs },
			);
			return processor;
		},
	};
}

/**
 * Starts a queue-mode cluster with this package loaded. See the top of this file.
 *
 * @param {object} [options]
 * @param {string} [options.version] n8n version (default N8N_VERSIONS.current; 2.x)
 * @param {number} [options.webhookProcessors] how many `n8n webhook` processes (default 2)
 * @param {(line: string) => void} [options.log]
 * @param {Record<string,string>} [options.env] extra environment for every process
 * @param {Record<string,string>} [options.mainEnv] extra environment for main only
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
	const storage = clusterStorage({ name: clusterId, pg, redis });
	const timings = {};
	const started = Date.now();
	const processes = { main: null, worker: null, webhooks: [] };
	let balancer;
	let userFolder;
	let stopped = false;

	// Also run synchronously if the test process exits without stop() (plain Node; jest's
	// sandboxed `process` skips it).
	const onExit = () => storage.remove();
	process.once('exit', onExit);

	async function stop({ keepFolder = false } = {}) {
		if (stopped) return;
		stopped = true;
		// Webhook processors and the worker first, then main (whose shutdown deregisters the
		// triggers' endpoints at the service).
		await Promise.all(processes.webhooks.filter(Boolean).map((processor) => processor.stop()));
		if (processes.worker) await processes.worker.stop();
		if (processes.main) await processes.main.stop({ keep: true });
		if (balancer) await balancer.close();
		const problems = storage.remove();
		process.removeListener('exit', onExit);
		if (userFolder && !keepFolder) fs.rmSync(userFolder, { recursive: true, force: true });
		if (problems.length)
			throw new Error(`Cleaning up cluster ${clusterId}: ${problems.join('; ')}`);
	}

	try {
		// 1. Storage
		let phase = Date.now();
		storage.create();
		timings.storage = (Date.now() - phase) / 1000;

		// 2. Ports and the balancer (its URL is every process's N8N_WEBHOOK_URL)
		const runtime = await ensureN8n(version, { log });
		const mainPort = await freePort();
		const webhookPorts = [];
		for (let index = 0; index < webhookProcessors; index += 1) webhookPorts.push(await freePort());
		balancer = await startBalancer({ mainPort, webhookPorts: () => webhookPorts, log });
		userFolder = fs.mkdtempSync(path.join(os.tmpdir(), `n8n-queue-${version}-`));
		const queueEnv = queueEnvironment({
			name: clusterId,
			pg,
			redis,
			balancerUrl: balancer.url,
			mainPort,
			extraEnv,
		});

		// 3. Main: builds and packs the package, installs it into the shared user folder, runs
		// the database migrations and sets up the owner.
		phase = Date.now();
		log(`Cluster ${clusterId}: starting main …`);
		processes.main = await startN8n({
			version,
			port: mainPort,
			webhookBaseUrl: balancer.url,
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
		const starters = await processStarters({
			runtime,
			userFolder,
			env: { ...baseEnvironment(runtime, userFolder, major), ...queueEnv },
			webhookPorts,
			workerConcurrency,
			startTimeoutMs,
			log,
		});
		const [worker, ...webhooks] = await Promise.all([
			starters.startWorker(),
			...webhookPorts.map((_port, index) => starters.startWebhook(index)),
		]);
		Object.assign(processes, { worker, webhooks });
		timings.workerAndWebhooks = (Date.now() - phase) / 1000;
		timings.total = (Date.now() - started) / 1000;
		log(
			`Cluster ${clusterId} is up after ${Math.round(timings.total)} s (main ${Math.round(timings.main)} s, then worker + ${webhookProcessors} webhook processors ${Math.round(timings.workerAndWebhooks)} s)`,
		);
		return clusterApi({
			clusterId,
			version,
			balancer,
			processes,
			startWebhook: starters.startWebhook,
			mainPort,
			webhookPorts,
			userFolder,
			timings,
			storage,
			stop,
		});
	} catch (error) {
		try {
			await stop({ keepFolder: true });
		} catch (cleanupError) {
			error.message += `\n${cleanupError.message}`;
		}
		if (userFolder) error.message += `\n(logs in ${userFolder})`;
		throw error;
	}
}

/** What startQueueCluster resolves with: main's REST client plus the cluster's own handles. */
function clusterApi({ clusterId, balancer, processes, startWebhook, storage, ...fields }) {
	const { main } = processes;
	const cluster = {
		// main's REST client: credentials, workflows, runs, executions, activation, binary data,
		// and webhookUrl(), which points at the balancer.
		...main.client,
		...fields,
		id: clusterId,
		/** The balancer's URL: what triggers register and what senders call. */
		url: balancer.url,
		balancer,
		main,
		database: clusterId,
		queuePrefix: clusterId,
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
		async stopWebhookProcessor(index) {
			const processor = processes.webhooks[index];
			if (processor?.running) await processor.stop();
		},
		async startWebhookProcessor(index) {
			if (processes.webhooks[index]?.running) return processes.webhooks[index];
			processes.webhooks[index] = await startWebhook(index);
			return processes.webhooks[index];
		},
		async restartWebhookProcessor(index) {
			await cluster.stopWebhookProcessor(index);
			return cluster.startWebhookProcessor(index);
		},
		/** How many Redis keys this cluster has now (its prefix). */
		redisKeyCount: storage.redisKeyCount,
		/** Whether this cluster's database exists. */
		databaseExists: storage.databaseExists,
	};
	return cluster;
}

module.exports = { startQueueCluster };
