#!/usr/bin/env node
'use strict';
/**
 * `npm run dev` — try the nodes in a real n8n, with nothing but Node 20 and npm:
 *
 *   1. builds and packs this package,
 *   2. starts the sandbox (a local stand-in for the Dynamic QR Code Service),
 *   3. provisions a pinned n8n with its own Node 24 (first time only: a few minutes, cached in
 *      ~/.cache/n8n-nodes-dynamic-qr) and starts it with the package loaded,
 *   4. sets up the owner account, a credential for the sandbox and the example workflows
 *      (their chat and CRM URLs point at a local inbox that prints what it receives),
 *   5. prints the editor URL, the login and what to try first, and runs until stopped.
 *
 * Options: --port <n> (n8n, default 5678, another free port when taken), --sandbox-port <n>
 * (default 4010, likewise), --n8n <version|current|previous> (default current).
 *
 * It stops, with everything it started (n8n, its task runner, the sandbox, the inbox) and their
 * ports, on Ctrl+C, on SIGTERM, SIGINT or SIGHUP, and when the process that started it goes away:
 * npm itself exits on a signal to its own pid without passing it on, which is how process
 * managers and IDE stop buttons end `npm run dev`. Each run starts from scratch.
 */
const fs = require('node:fs');

const { startN8n, N8N_VERSIONS } = require('../n8n/instance');
const { startSandbox } = require('../sandbox');
const { loadExamples } = require('../examples');
const {
	createSandboxCredentials,
	createN8nApiCredential,
	CREDENTIAL_NAME,
	READ_ONLY_CREDENTIAL_NAME,
} = require('../n8n/sandbox-credentials');
const { portInUse } = require('../ports');
const { startRecorder } = require('../http-recorder');

const PARENT_CHECK_MS = 500;

const say = (line = '') => process.stdout.write(`${line}\n`);
const note = (line) => process.stderr.write(`[dev] ${line}\n`);

function parseArgs(argv) {
	const options = {
		port: 5678,
		sandboxPort: 4010,
		version: N8N_VERSIONS.current,
		portGiven: false,
		sandboxPortGiven: false,
	};
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inline] = argv[index].split(/=(.*)/s);
		const value = () => (inline !== undefined ? inline : argv[++index]);
		if (flag === '--port') Object.assign(options, { port: Number(value()), portGiven: true });
		else if (flag === '--sandbox-port')
			Object.assign(options, { sandboxPort: Number(value()), sandboxPortGiven: true });
		else if (flag === '--n8n') {
			const wanted = value();
			options.version = N8N_VERSIONS[wanted] ?? wanted;
		} else if (flag === '--help' || flag === '-h') {
			say('npm run dev [-- --port 5678] [--sandbox-port 4010] [--n8n current|previous|<version>]');
			process.exit(0);
		} else throw new Error(`Unknown option ${flag} (try --help)`);
	}
	for (const name of ['port', 'sandboxPort']) {
		if (!Number.isInteger(options[name]) || options[name] < 1 || options[name] > 65535) {
			throw new Error(`--${name === 'port' ? 'port' : 'sandbox-port'} needs a port number`);
		}
	}
	return options;
}

/** A process's parent pid and command name from /proc (Linux), or null where there is none. */
function procInfo(pid) {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return {
			ppid: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]),
			name: stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')')),
		};
	} catch {
		return null;
	}
}

/**
 * Whoever started this session, to notice it going away: a process whose parent ends gets a new
 * parent from the operating system. `npm run dev` runs this through a shell, which outlives npm
 * when npm is killed: then the shell's new parent tells (read from /proc where there is one).
 */
function whoStartedThis() {
	const parent = process.ppid;
	const shell = procInfo(parent);
	const npmThroughShell =
		Boolean(process.env.npm_lifecycle_event) && /^(sh|dash|bash)$/.test(shell?.name ?? '');
	const npm = npmThroughShell ? shell.ppid : null;
	return {
		isGone: () => process.ppid !== parent || (npm !== null && procInfo(parent)?.ppid !== npm),
	};
}

/** The wanted port when free; when taken, an error if the user asked for it, else any free port. */
async function pickPort(wanted, given, label) {
	if (!(await portInUse(wanted))) return wanted;
	if (given) throw new Error(`Port ${wanted} (${label}) is in use; choose another one`);
	note(`Port ${wanted} is in use; ${label} takes a free port instead.`);
	return 0;
}

/** Where the example workflows' chat and CRM requests land: printed in this terminal. */
function startInbox() {
	return startRecorder({
		onRecord({ path: requestPath, body, rawBody }) {
			const shown =
				body && typeof body === 'object' ? (body.text ?? JSON.stringify(body, null, 2)) : rawBody;
			say(`\n📨 ${requestPath === '/chat' ? 'Chat message' : 'CRM row'} received:\n${shown}\n`);
		},
	});
}

async function main() {
	const options = parseArgs(process.argv.slice(2));
	const started = Date.now();
	let sandbox;
	let n8n;
	let inbox;
	let stopping = false;
	const stopAll = async (code) => {
		if (stopping) return;
		stopping = true;
		note('Stopping n8n and the sandbox …');
		await n8n?.stop().catch((error) => note(`n8n: ${error.message}`));
		await sandbox?.close().catch(() => {});
		await inbox?.close().catch(() => {});
		process.exit(code);
	};
	for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, () => stopAll(0));
	const starter = whoStartedThis();
	setInterval(() => {
		if (starter.isGone()) stopAll(0);
	}, PARENT_CHECK_MS).unref();
	// With the terminal or the parent's pipe gone, printing fails; stopping must not.
	for (const stream of [process.stdout, process.stderr]) stream.on('error', () => {});

	try {
		const sandboxPort = await pickPort(
			options.sandboxPort,
			options.sandboxPortGiven,
			'the sandbox',
		);
		sandbox = await startSandbox({ port: sandboxPort });
		note(`Sandbox of the Dynamic QR Code Service on ${sandbox.siteUrl}`);
		inbox = await startInbox();

		const port = await pickPort(options.port, options.portGiven, 'n8n');
		n8n = await startN8n({
			version: options.version,
			port: port || undefined,
			log: note,
		});

		const { readWrite: credential } = await createSandboxCredentials(n8n, sandbox);
		const check = await n8n.testCredential({
			...credential,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		if (check.status !== 'OK')
			throw new Error(`The sandbox credential does not work: ${check.message}`);
		await createN8nApiCredential(n8n);

		const workflows = {};
		for (const [file, example] of Object.entries(loadExamples())) {
			workflows[file] = await n8n.createWorkflow(example, {
				patch: (nodes) => {
					if (nodes['Post to chat']) nodes['Post to chat'].parameters.url = `${inbox.url}/chat`;
					if (nodes['Add to CRM']) nodes['Add to CRM'].parameters.url = `${inbox.url}/crm`;
				},
			});
		}
		// Some codes to play with: the bulk example, run once.
		const bulk = await n8n.runWorkflow(workflows['bulk-create-qr-codes.json'].id);
		if (bulk.status !== 'success')
			throw new Error(`The bulk-create example failed: ${bulk.error?.message}`);
		const codes = bulk.items('Create QR code').map((item) => item.json);
		const flyer = codes.find((code) => code.name === 'Spring Flyer') ?? codes[0];

		const link = (file) => `${n8n.url}/workflow/${workflows[file].id}`;
		say('');
		say('──────────────────────────────────────────────────────────────────────────────');
		say(
			` n8n ${n8n.version} with n8n-nodes-dynamic-qr is ready (${Math.round((Date.now() - started) / 1000)} s)`,
		);
		say('──────────────────────────────────────────────────────────────────────────────');
		say(` Editor     ${n8n.url}`);
		say(` Login      ${n8n.owner.email}  /  ${n8n.owner.password}`);
		say(` Sandbox    ${sandbox.siteUrl}   (API ${sandbox.baseUrl})`);
		say(
			`            read-write key ${sandbox.keys.readWrite}   read-only key ${sandbox.keys.readOnly}`,
		);
		say(
			`            card ${sandbox.cardId}; control API ${sandbox.siteUrl}/__sandbox/ (dev/sandbox/README.md)`,
		);
		say(
			` Credential "${CREDENTIAL_NAME}" (read-write, what new nodes get) and "${READ_ONLY_CREDENTIAL_NAME}" point at the sandbox.`,
		);
		say(
			` Codes      ${codes.map((code) => `${code.name} ${code.short_url}`).join('\n            ')}`,
		);
		say('');
		say(' Try first:');
		say(` 1. Sign in, open "Dynamic QR: re-point a printed QR code", click "Execute workflow":`);
		say(`    ${link('repoint-printed-qr-code.json')}`);
		say(`    then open ${flyer.short_url} — it now redirects to the new URL.`);
		say(' 2. Open "Dynamic QR: send every scan to a chat or webhook" and activate (publish) it:');
		say(`    ${link('send-scans-to-chat.json')}`);
		say('    then scan a code like a phone does — the chat message appears in this terminal:');
		say(
			`    curl -s -o /dev/null -A "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) Safari/604.1" ${flyer.short_url}`,
		);
		say(
			' 3. Activate "Dynamic QR: add every lead to a CRM or sheet", then share a lead on the card:',
		);
		say(
			`    curl -s -X POST -H 'content-type: application/json' -d '{"name":"Ada Lovelace","email":"ada@example.com"}' ${sandbox.siteUrl}/__sandbox/leads`,
		);
		say(
			` 4. "Dynamic QR: download print files" gives PNG, SVG, PDF and EPS at 50 mm / 300 dpi: ${link('download-print-files.json')}`,
		);
		say(
			' 5. Build your own: add the "Dynamic QR" node to a new workflow (or give it to an AI Agent as a tool).',
		);
		say('');
		say(' Everything here is temporary. Ctrl+C stops n8n and the sandbox.');
		say('──────────────────────────────────────────────────────────────────────────────');

		// n8n ending by itself, not through stopAll, ends the session.
		n8n.whenExited.then(() => {
			if (stopping) return;
			note(`n8n stopped unexpectedly; its last lines:\n${n8n.logTail(20)}`);
			stopAll(1);
		});
	} catch (error) {
		note(`Failed: ${error.message}`);
		await stopAll(1);
	}
}

main();
