'use strict';

const path = require('node:path');
const { spawn } = require('node:child_process');
const { sandboxClient, request } = require('../client');

const CLI = path.join(__dirname, '..', 'cli.js');

/** Spawns the CLI and resolves with the child and its first stdout line. */
function startCli(args) {
	const child = spawn(process.execPath, [CLI, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
	return new Promise((resolve, reject) => {
		let stdout = '';
		let stderr = '';
		child.stderr.on('data', (chunk) => {
			stderr += chunk;
		});
		child.stdout.on('data', (chunk) => {
			stdout += chunk;
			const newline = stdout.indexOf('\n');
			if (newline !== -1)
				resolve({ child, firstLine: stdout.slice(0, newline), stderr: () => stderr });
		});
		child.on('exit', (code) =>
			reject(Object.assign(new Error(`cli exited with ${code}: ${stderr}`), { code, stderr })),
		);
	});
}

function stop(child) {
	return new Promise((resolve) => {
		child.on('exit', resolve);
		child.kill('SIGTERM');
	});
}

test('prints the startup JSON as the first stdout line and serves until killed', async () => {
	const { child, firstLine, stderr } = await startCli([
		'--port',
		'0',
		'--rate-limit',
		'1234',
		'--latency',
		'5',
	]);
	try {
		const info = JSON.parse(firstLine);
		expect(Object.keys(info)).toEqual(['siteUrl', 'baseUrl', 'keys', 'cardId']);
		expect(info.siteUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
		expect(info.baseUrl).toBe(`${info.siteUrl}/api/v1`);
		expect(Object.keys(info.keys)).toEqual(['readWrite', 'readOnly']);
		expect(info.cardId).toMatch(/^[A-Za-z0-9]{12}$/);

		const me = await sandboxClient(info, info.keys.readWrite).get('/me');
		expect(me.status).toBe(200);
		expect(me.body.data.limits.requests_per_minute).toBe(1234);
		expect((await request(`${info.siteUrl}/__sandbox/faults`)).body.latencyMs).toBe(5);
		expect(stderr()).toContain(info.siteUrl); // logs go to stderr, not stdout
	} finally {
		await stop(child);
	}
});

test('an unknown option exits with 1 and says so on stderr', async () => {
	await expect(startCli(['--colour', 'blue'])).rejects.toMatchObject({
		code: 1,
		stderr: expect.stringContaining('Unknown option --colour'),
	});
});
