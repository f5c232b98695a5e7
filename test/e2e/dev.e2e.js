'use strict';
/**
 * `npm run dev` leaves nothing behind however it is stopped: started as a person or a process
 * manager starts it (npm, which runs dev/cli/dev.js through a shell), it is signalled as they
 * stop it, and then none of the processes it started (the shell, dev.js, the watchdog, n8n, n8n's
 * task runner) may still run, and none of the ports they listened on (n8n, the sandbox, the
 * inbox, the task broker) may still be held.
 *
 * The processes and ports are read from /proc (Linux): the process tree under npm's pid once the
 * session is ready, and the listening TCP sockets those processes hold. Each case starts its own
 * session (a real n8n: a few minutes on a busy machine).
 *
 * Run alone: `npx jest -c jest.e2e.config.js test/e2e/dev.e2e.js`.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');

const { freePort } = require('../../dev/ports');
const { REPO_ROOT } = require('../../dev/paths');
const { waitFor, giveUp } = require('../../dev/wait-for');

const READY = /with n8n-nodes-dynamic-qr is ready/;

/**
 * `{ ppid, state, startTime }` of a live process, or null once it is gone (a zombie counts as
 * gone). The start time tells a process from a later one that got the same pid.
 */
function processStatus(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name (in parentheses) may hold spaces: the fields after it are fixed.
		const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
		return fields[0] === 'Z' ? null : { ppid: Number(fields[1]), startTime: fields[19] };
	} catch {
		return null;
	}
}

const commandLine = (pid) => {
	try {
		return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ').trim();
	} catch {
		return '(gone)';
	}
};

/** `root` and every process below it. */
function processTree(root) {
	const children = new Map();
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) continue;
		const status = processStatus(Number(entry));
		if (!status) continue;
		if (!children.has(status.ppid)) children.set(status.ppid, []);
		children.get(status.ppid).push(Number(entry));
	}
	const tree = [];
	const visit = (pid) => {
		tree.push(pid);
		for (const child of children.get(pid) ?? []) visit(child);
	};
	visit(root);
	return tree;
}

/** The TCP ports these processes listen on (from their sockets' inodes in /proc/net/tcp*). */
function listeningPorts(pids) {
	const inodes = new Set();
	for (const pid of pids) {
		let fds = [];
		try {
			fds = fs.readdirSync(`/proc/${pid}/fd`);
		} catch {
			continue;
		}
		for (const fd of fds) {
			try {
				const match = /^socket:\[(\d+)\]$/.exec(fs.readlinkSync(`/proc/${pid}/fd/${fd}`));
				if (match) inodes.add(match[1]);
			} catch {
				// closed meanwhile
			}
		}
	}
	const ports = new Set();
	for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
		const lines = fs.existsSync(table) ? fs.readFileSync(table, 'utf8').split('\n').slice(1) : [];
		for (const line of lines) {
			const fields = line.trim().split(/\s+/);
			// local_address is fields[1] ("0100007F:1F90"), st is fields[3] (0A = LISTEN).
			if (fields[3] === '0A' && inodes.has(fields[9]))
				ports.add(parseInt(fields[1].split(':')[1], 16));
		}
	}
	return [...ports].sort((a, b) => a - b);
}

/** Whether a port on 127.0.0.1 can be listened on again. */
const portFree = (port) =>
	new Promise((resolve) => {
		const server = net.createServer();
		server.once('error', () => resolve(false));
		server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
	});

/**
 * Starts `npm run dev` on free ports in a process group of its own (so the test can clean up
 * after a failure; `onSpawn` gets npm's process at once) and resolves once it says it is ready.
 */
async function startDev(log, onSpawn) {
	const port = await freePort();
	const sandboxPort = await freePort();
	const args = ['run', 'dev', '--', '--port', String(port), '--sandbox-port', String(sandboxPort)];
	const npm = spawn('npm', args, {
		cwd: REPO_ROOT,
		stdio: ['ignore', 'pipe', 'pipe'],
		detached: true,
	});
	onSpawn(npm);
	let output = '';
	const keep = (chunk) => {
		output = (output + chunk.toString()).slice(-20000);
	};
	npm.stdout.on('data', keep);
	npm.stderr.on('data', keep);
	const exited = new Promise((resolve) => npm.once('exit', resolve));
	await waitFor(
		() => {
			if (npm.exitCode !== null) throw giveUp(new Error(`npm run dev exited early:\n${output}`));
			return READY.test(output);
		},
		{ what: 'npm run dev to be ready', timeoutMs: 15 * 60 * 1000, intervalMs: 1000 },
	);
	log(`npm run dev is ready (n8n on ${port}, sandbox on ${sandboxPort})`);
	return { npm, exited, port, sandboxPort, output: () => output };
}

describe('npm run dev stops everything it started', () => {
	const log = (line) => process.stderr.write(`[dev e2e] ${line}\n`);
	/** What a case started, ended after it whatever happened (a failed case leaves nothing). */
	let started = null;

	afterEach(() => {
		if (!started) return;
		const { npm, tree } = started;
		started = null;
		for (const { pid, startTime } of tree) {
			// Only the very process the case saw, not a newer one that got its pid.
			if (processStatus(pid)?.startTime !== startTime) continue;
			try {
				process.kill(pid, 'SIGKILL');
			} catch {
				// ended meanwhile
			}
		}
		try {
			process.kill(-npm.pid, 'SIGKILL');
		} catch {
			// the group is gone, as it should be
		}
	});

	test.each([
		// What process managers and IDE stop buttons do; npm exits without passing it on.
		['SIGTERM', 'npm'],
		['SIGHUP', 'npm'],
		// The parent going away without a word.
		['SIGKILL', 'npm'],
		// Ctrl+C reaches every process of the terminal's group; here only dev.js gets it.
		['SIGINT', 'dev.js'],
	])(
		'%s to %s: no process of the session is left and its ports are free',
		async (signal, target) => {
			const dev = await startDev(log, (npm) => {
				started = { npm, tree: [] };
			});
			const tree = processTree(dev.npm.pid);
			started.tree = tree.map((pid) => ({ pid, startTime: processStatus(pid)?.startTime }));
			const ports = listeningPorts(tree);
			log(`processes: ${tree.map((pid) => `${pid} ${commandLine(pid).slice(0, 80)}`).join('; ')}`);
			log(`listening on: ${ports.join(', ')}`);
			// What is asserted afterwards must have been there: n8n, its watchdog, its runner, dev.js.
			// Node's own process, not the shell npm runs it through (`sh -c node dev/cli/dev.js …`).
			const devJs = tree.find((pid) => commandLine(pid).split(' ')[1] === 'dev/cli/dev.js');
			expect(devJs).toBeDefined();
			expect(tree.some((pid) => commandLine(pid).includes('watchdog.js'))).toBe(true);
			expect(ports).toEqual(expect.arrayContaining([dev.port, dev.sandboxPort]));
			expect(ports.length).toBeGreaterThanOrEqual(4);

			process.kill(target === 'npm' ? dev.npm.pid : devJs, signal);

			const left = await waitFor(
				() => {
					const alive = tree.filter((pid) => processStatus(pid));
					return alive.length === 0 ? alive : null;
				},
				{
					what: () =>
						`every process of the session to end (left: ${tree
							.filter((pid) => processStatus(pid))
							.map((pid) => `${pid} ${commandLine(pid).slice(0, 80)}`)
							.join('; ')})`,
					timeoutMs: 90000,
					intervalMs: 500,
				},
			);
			expect(left).toEqual([]);
			await dev.exited;
			const stillHeld = [];
			for (const port of ports) if (!(await portFree(port))) stillHeld.push(port);
			expect(stillHeld).toEqual([]);
		},
		20 * 60 * 1000,
	);
});
