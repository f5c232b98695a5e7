'use strict';
/**
 * One n8n process (`n8n start`, `n8n worker`, `n8n webhook`) under the watchdog (watchdog.js),
 * which ends it when this process goes away by any means. n8n and its task runners form a
 * process group that stop() ends: SIGTERM first, so that running executions finish and triggers
 * deregister, SIGKILL after 30 s.
 *
 * Used by instance.js (one n8n) and queue.js (a queue-mode cluster); each says what "ready" means
 * for its processes through waitUntilReady().
 */
const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');

const { waitFor, giveUp } = require('../wait-for');

const STOP_GRACE_MS = 30000;

/**
 * What every n8n process started here shares: the caller's environment without anything that
 * configures n8n (so a developer's shell cannot change what is tested), loopback only, and no
 * telemetry, banners or calls home. Each caller adds its ports, URLs, database and queue.
 */
function baseEnvironment(runtime, userFolder, major) {
	const inherited = Object.fromEntries(
		Object.entries(process.env).filter(
			([name]) =>
				!/^(N8N_|DB_|EXECUTIONS_|QUEUE_|GENERIC_|WEBHOOK_URL$|NODE_OPTIONS$|NODE_ENV$|OFFLOAD_MANUAL_EXECUTIONS_TO_WORKERS$)/.test(
					name,
				),
		),
	);
	return {
		...inherited,
		PATH: `${runtime.nodeBinDir}${path.delimiter}${process.env.PATH ?? ''}`,
		N8N_USER_FOLDER: userFolder,
		N8N_LISTEN_ADDRESS: '127.0.0.1',
		N8N_HOST: '127.0.0.1',
		N8N_PROTOCOL: 'http',
		N8N_SECURE_COOKIE: 'false',
		N8N_DIAGNOSTICS_ENABLED: 'false',
		N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
		N8N_TEMPLATES_ENABLED: 'false',
		N8N_PERSONALIZATION_ENABLED: 'false',
		N8N_HIRING_BANNER_ENABLED: 'false',
		N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'true',
		N8N_GIT_NODE_DISABLE_BARE_REPOS: 'true',
		N8N_BLOCK_ENV_ACCESS_IN_NODE: 'true',
		// Task runners (the Code node): 2.x always has them, 1.x needs them switched on.
		...(major >= 2 ? {} : { N8N_RUNNERS_ENABLED: 'true' }),
		N8N_RUNNERS_BROKER_LISTEN_ADDRESS: '127.0.0.1',
		N8N_LOG_LEVEL: 'info',
	};
}
const TAIL_LINES = 60;

/**
 * @param {object} options
 * @param {{ nodeBin: string, n8nBin: string }} options.runtime from runtime.js
 * @param {string} options.command `start`, `worker` or `webhook`
 * @param {string} [options.label] how messages name the process (default `n8n <command>`)
 * @param {string} options.cwd
 * @param {Record<string,string>} options.env the whole environment
 * @param {string} options.logFile where n8n's output goes (appended)
 * @param {(line: string) => void} [options.onLine] every line n8n prints
 */
function spawnN8n({ runtime, command, label = `n8n ${command}`, cwd, env, logFile, onLine }) {
	const logStream = fs.createWriteStream(logFile, { flags: 'a' });
	const child = spawn(
		runtime.nodeBin,
		[path.join(__dirname, 'watchdog.js'), runtime.n8nBin, command],
		{ cwd, env, stdio: ['pipe', 'pipe', 'pipe'], detached: true },
	);
	child.stdin.on('error', () => {}); // the watchdog may be gone first

	let n8nPid;
	let exited = null;
	const exitPromise = new Promise((resolve) => {
		child.once('exit', (code, signal) => {
			exited = { code, signal };
			resolve(exited);
		});
	});
	let resolvePid;
	const pidPromise = new Promise((resolve) => {
		resolvePid = resolve;
	});

	let tail = [];
	let buffered = '';
	const onOutput = (chunk) => {
		logStream.write(chunk);
		buffered += chunk.toString();
		const lines = buffered.split('\n');
		buffered = lines.pop();
		for (const line of lines) {
			// The watchdog announces n8n's own pid, the leader of n8n's process group.
			const pidLine = /^__N8N_PID__=(\d+)$/.exec(line);
			if (pidLine) {
				n8nPid = Number(pidLine[1]);
				resolvePid(n8nPid);
				continue;
			}
			tail.push(line);
			if (tail.length > TAIL_LINES) tail = tail.slice(-TAIL_LINES);
			if (onLine) onLine(line);
		}
	};
	child.stdout.on('data', onOutput);
	child.stderr.on('data', onOutput);
	const lastLines = (lines = 25) => tail.slice(-lines).join('\n');

	const killGroup = (signal) => {
		for (const group of [n8nPid, child.pid]) {
			if (!group) continue;
			try {
				process.kill(-group, signal);
			} catch {
				// already gone
			}
		}
	};
	// Plain Node runs this on exit (jest's sandboxed `process` does not: the watchdog covers it).
	const onExit = () => killGroup('SIGKILL');
	process.once('exit', onExit);

	async function stop() {
		if (!exited) {
			if (n8nPid) {
				try {
					process.kill(-n8nPid, 'SIGTERM');
				} catch {
					// already gone
				}
			} else killGroup('SIGTERM');
			let timer;
			const timedOut = await Promise.race([
				exitPromise.then(() => false),
				new Promise((resolve) => {
					timer = setTimeout(() => resolve(true), STOP_GRACE_MS);
				}),
			]);
			clearTimeout(timer);
			if (timedOut) {
				killGroup('SIGKILL');
				await exitPromise;
			}
		}
		killGroup('SIGKILL');
		process.removeListener('exit', onExit);
		await new Promise((resolve) => logStream.end(resolve));
	}

	/**
	 * Polls `ready` (bounded by `timeoutMs`) until it answers true; fails at once when the process
	 * exits meanwhile. Either failure carries n8n's last lines.
	 */
	async function waitUntilReady(ready, { timeoutMs, what }) {
		try {
			await waitFor(
				() => {
					if (exited) {
						throw giveUp(
							new Error(
								`${label} exited (code ${exited.code}, signal ${exited.signal}) while starting`,
							),
						);
					}
					return ready();
				},
				{ timeoutMs, intervalMs: 500, what },
			);
		} catch (error) {
			error.message += `:\n${lastLines()}`;
			throw error;
		}
	}

	return {
		/** n8n's pid once the watchdog announced it (or the watchdog exited first). */
		started: Promise.race([pidPromise, exitPromise]),
		exitPromise,
		get pid() {
			return n8nPid;
		},
		watchdogPid: child.pid,
		/** `{ code, signal }` once the process has exited, else null. */
		get exited() {
			return exited;
		},
		tail: lastLines,
		waitUntilReady,
		stop,
	};
}

module.exports = { baseEnvironment, spawnN8n };
