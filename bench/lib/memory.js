'use strict';
/**
 * Peak memory of a process tree (n8n and its children, e.g. its task runner), read from
 * /proc: VmRSS of every process in the tree, summed, sampled every `intervalMs`; and the
 * root's VmHWM (kernel-tracked peak RSS), reset at the start through /proc/<pid>/clear_refs
 * (writing "5" resets the peak; allowed for our own child processes).
 * On systems without /proc every number is undefined.
 */
const fs = require('node:fs');

function statusField(pid, field) {
	try {
		const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
		const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(text);
		return match ? Number(match[1]) * 1024 : undefined;
	} catch {
		return undefined;
	}
}

/** pid -> parent pid for every process visible in /proc. */
function parentMap() {
	const parents = new Map();
	for (const name of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(name)) continue;
		try {
			const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
			// "pid (comm) state ppid ...": comm may hold spaces and parentheses, so cut at the last ")".
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			parents.set(Number(name), Number(fields[1]));
		} catch {
			// the process ended between readdir and read
		}
	}
	return parents;
}

function processTree(rootPid) {
	const parents = parentMap();
	const tree = new Set([rootPid]);
	let grew = true;
	while (grew) {
		grew = false;
		for (const [pid, ppid] of parents) {
			if (!tree.has(pid) && tree.has(ppid)) {
				tree.add(pid);
				grew = true;
			}
		}
	}
	return [...tree];
}

function treeRss(rootPid) {
	let total = 0;
	let seen = 0;
	for (const pid of processTree(rootPid)) {
		const rss = statusField(pid, 'VmRSS');
		if (rss !== undefined) {
			total += rss;
			seen++;
		}
	}
	return seen ? total : undefined;
}

function resetPeak(pid) {
	try {
		fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
		return true;
	} catch {
		return false;
	}
}

/**
 * Starts sampling; `stop()` returns { baselineTree, peakTree, peakMainHwm, samples } in bytes.
 * `rootPid` is the n8n process (its children are found anew at every sample).
 */
function sampleMemory(rootPid, { intervalMs = 50 } = {}) {
	if (!rootPid || !fs.existsSync('/proc/self/status')) return { stop: () => ({}) };
	const hwmReset = resetPeak(rootPid);
	const baselineTree = treeRss(rootPid);
	let peakTree = baselineTree ?? 0;
	let samples = 0;
	const tick = () => {
		const rss = treeRss(rootPid);
		samples++;
		if (rss !== undefined && rss > peakTree) peakTree = rss;
	};
	const timer = setInterval(tick, intervalMs);
	return {
		stop() {
			clearInterval(timer);
			tick();
			return {
				baselineTree,
				peakTree,
				peakMainHwm: hwmReset ? statusField(rootPid, 'VmHWM') : undefined,
				samples,
			};
		},
	};
}

const mib = (bytes) => (typeof bytes === 'number' ? bytes / 2 ** 20 : NaN);

module.exports = { sampleMemory, processTree, treeRss, mib };
