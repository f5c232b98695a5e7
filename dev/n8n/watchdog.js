'use strict';
/**
 * Runs n8n (argv[2] is n8n's bin, the rest its command) in a process group of its own and ends
 * that group (n8n and its task runners) as soon as the process that started this watchdog goes
 * away: it watches its stdin, a pipe from that process, which closes however that process ends
 * (even SIGKILL or a test runner giving up). Started by process.js; runs on n8n's own Node.
 *
 * First line on stdout: `__N8N_PID__=<pid>` (also n8n's process group id). Exits with n8n's code.
 */
const { spawn } = require('node:child_process');

const n8n = spawn(process.execPath, [process.argv[2], ...process.argv.slice(3)], {
	stdio: ['ignore', 'inherit', 'inherit'],
	detached: true,
});
process.stdout.write(`__N8N_PID__=${n8n.pid}\n`);

const killN8n = () => {
	try {
		process.kill(-n8n.pid, 'SIGKILL');
	} catch {
		// already gone
	}
};

// The parent is gone: nothing may outlive it.
const orphaned = () => {
	killN8n();
	process.exit(1);
};
process.stdin.on('end', orphaned);
process.stdin.on('close', orphaned);
process.stdin.on('error', orphaned);
process.stdin.resume();

n8n.on('exit', (code, signal) => {
	killN8n(); // task runners n8n left behind
	process.exit(code ?? (signal ? 1 : 0));
});
