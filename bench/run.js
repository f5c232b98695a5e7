#!/usr/bin/env node
'use strict';
/**
 * `npm run bench`: starts the sandbox and one real n8n 2.x, runs every case with repeats, prints
 * the report and writes it to bench/RESULTS.md (raw per-run numbers in bench/RESULTS.json).
 *
 *   node bench/run.js                      all cases, full repeats (about 15 min on 2 cores)
 *   node bench/run.js --quick              one repeat each, fewer deliveries (about 6 min)
 *   node bench/run.js --case bulk,faults   only these cases: verifier, bulk, bulk-small,
 *                                          return-all, list-search, trigger, trigger-lazy,
 *                                          trigger-legacy, trigger-queue, faults, sync,
 *                                          scan-report, scan-poll, update-many, download-image, window and
 *                                          window-return-all (these two not in a full run)
 *   node bench/run.js --repeats 5          repeats for every n8n case
 *   node bench/run.js --out FILE.md        where to write (default: RESULTS.md for a full run,
 *                                          RESULTS-partial.md for --quick or --case)
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { ROOT, machine, ownPackage, packageVersion, gitRevision } = require('./lib/machine');
const sandboxLib = require('./lib/sandbox');
const n8nLib = require('./lib/n8n');
const { render } = require('./lib/report');
const { HTTP_REQUEST_VERSION } = require('./lib/workflows');
const { treeRss, mib } = require('./lib/memory');

const CASES = ['verifier', 'return-all', 'list-search', 'bulk', 'bulk-small', 'trigger', 'faults', 'sync', 'trigger-lazy', 'trigger-legacy', 'trigger-queue', 'scan-report', 'scan-poll', 'update-many', 'download-image', 'window', 'window-return-all'];
/** A full run: every case but the A/B of requests in flight (`window`: about 35 minutes on its own). */
const FULL = CASES.filter((name) => !name.startsWith('window'));

function parseArgs(argv) {
	const args = { quick: false, cases: FULL, repeats: undefined, out: undefined };
	for (let i = 0; i < argv.length; i++) {
		const arg = argv[i];
		const value = () => {
			const next = arg.includes('=') ? arg.slice(arg.indexOf('=') + 1) : argv[++i];
			if (next === undefined) throw new Error(`${arg} needs a value`);
			return next;
		};
		if (arg === '--quick') args.quick = true;
		else if (arg.startsWith('--case')) {
			args.cases = value().split(',').map((name) => name.trim()).filter(Boolean);
			const unknown = args.cases.filter((name) => !CASES.includes(name));
			if (unknown.length) throw new Error(`Unknown case ${unknown.join(', ')}; known: ${CASES.join(', ')}`);
		} else if (arg.startsWith('--repeats')) {
			args.repeats = Number(value());
			if (!Number.isInteger(args.repeats) || args.repeats < 1 || args.repeats > 20) throw new Error('--repeats takes 1 to 20');
		} else if (arg.startsWith('--out')) args.out = path.resolve(value());
		else if (arg === '--help' || arg === '-h') {
			process.stdout.write(fs.readFileSync(__filename, 'utf8').split('\n').slice(3, 16).join('\n').replace(/^ \* ?/gm, '') + '\n');
			process.exit(0);
		} else throw new Error(`Unknown argument ${arg} (try --help)`);
	}
	return args;
}

function plan(args) {
	const q = args.quick;
	const r = args.repeats;
	return {
		bulk: r ?? (q ? 1 : 3),
		bulkSmall: r ?? (q ? 1 : 2),
		returnAll: r ?? (q ? 1 : 3),
		listSearch: r ?? (q ? 3 : 5),
		trigger: r ?? (q ? 1 : 3),
		triggerLazy: r ?? (q ? 1 : 3),
		triggerLegacy: r ?? (q ? 1 : 2),
		triggerQueue: r ?? (q ? 1 : 2),
		triggerDeliveries: q ? 200 : 500,
		faults: r ?? (q ? 1 : 3),
		faultsHttp: r ? Math.min(r, 2) : q ? 1 : 2,
		sync: r ?? (q ? 1 : 3),
		scanReport: r ?? (q ? 1 : 3),
		updateMany: r ?? (q ? 1 : 3),
		downloadImage: r ?? (q ? 1 : 5),
		window: {
			rate3000: r ?? (q ? 1 : 3),
			rate60: r ?? (q ? 1 : 2),
			returnAll: r ?? (q ? 1 : 5),
			returnAllPriority: r ?? (q ? 1 : 5),
			returnAllBusy: r ?? (q ? 1 : 3),
		},
	};
}

const benchStarted = Date.now();
function log(line) {
	const t = ((Date.now() - benchStarted) / 1000).toFixed(0).padStart(4);
	process.stderr.write(`[bench ${t} s] ${line}\n`);
}

function dirty() {
	try {
		return execFileSync('git', ['status', '--porcelain', '--untracked-files=no'], { cwd: ROOT, encoding: 'utf8' }).trim().length > 0;
	} catch {
		return undefined;
	}
}

async function main() {
	const args = parseArgs(process.argv.slice(2));
	const counts = plan(args);
	const want = (name) => args.cases.includes(name);
	const full = !args.quick && args.cases.length === FULL.length && FULL.every(want) && args.repeats === undefined;
	const outFile = args.out ?? path.join(__dirname, full ? 'RESULTS.md' : 'RESULTS-partial.md');
	const rawFile = outFile.replace(/\.md$/, '') + '.json';
	const command = `npm run bench${process.argv.length > 2 ? ` -- ${process.argv.slice(2).join(' ')}` : ''}`;

	const results = {
		meta: {
			command,
			quick: args.quick,
			cases: args.cases,
			plan: counts,
			date: new Date().toISOString(),
			machine: machine(),
			versions: {
				node: process.version,
				package: `${ownPackage().name} ${ownPackage().version}`,
				revision: gitRevision(),
				dirty: dirty(),
				standardwebhooks: packageVersion('standardwebhooks'),
				httpRequest: HTTP_REQUEST_VERSION,
				expressionEngine: 'vm (n8n default; case 3a″ lazy acquire, 3a′ legacy)',
				n8n: n8nLib.N8N_VERSIONS.current,
			},
			sandbox: sandboxLib.SANDBOX_SETTINGS,
			fixedWindow: require('./lib/workflows').fixedWindow(),
			rawFile: path.relative(ROOT, rawFile),
		},
	};

	let sandbox;
	let n8n;
	let stopping = false;
	const cleanup = async () => {
		if (n8n) await n8n.stop().catch((error) => log(`stopping n8n: ${error.message}`));
		n8n = undefined;
		if (sandbox) await sandbox.close().catch(() => {});
		sandbox = undefined;
	};
	for (const signal of ['SIGINT', 'SIGTERM']) {
		process.once(signal, () => {
			if (stopping) return;
			stopping = true;
			log(`${signal}: stopping n8n and the sandbox …`);
			cleanup().finally(() => process.exit(130));
		});
	}

	try {
		// The verifier first, while nothing else runs on the machine.
		if (want('verifier')) {
			log('case 3b: verifier cost per delivery');
			results.verifier = await require('./cases/verifier').run({ quick: args.quick, log });
		}

		const needsN8n = ['bulk', 'bulk-small', 'return-all', 'list-search', 'trigger', 'faults', 'sync', 'scan-report', 'update-many', 'download-image', 'window', 'window-return-all'].some(want);
		if (needsN8n || want('trigger-legacy') || want('trigger-lazy') || want('scan-poll')) {
			sandbox = await sandboxLib.start();
			log(`sandbox on ${sandbox.sandbox.siteUrl}`);
		}
		// The scan events' poll runs in this process (n8n-core's PollContext), before n8n starts.
		if (want('scan-poll')) {
			log('case 6: one poll of the scan events over the list of codes');
			results.scanPoll = await require('./cases/scanPoll').run({ sandbox, log });
		}
		if (needsN8n) {
			const started = await n8nLib.start({ sandbox: sandbox.sandbox, log });
			n8n = started.n8n;
			const { credentials } = started;
			results.meta.versions.n8n = n8n.version;
			results.meta.n8nRssAtStartMiB = mib(treeRss(n8n.pid));
			results.meta.versions.n8nNode = execFileSync(n8n.runtime.nodeBin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');

			// Return All first: its memory numbers then start from a freshly started n8n.
			if (want('return-all')) {
				log(`case 2: return all (${counts.returnAll} repeats)`);
				results.returnAll = await require('./cases/returnAll').run({ n8n, sandbox, credentials, repeats: counts.returnAll, log });
			}
			if (want('list-search')) {
				log(`case 5: the editor's list search (${counts.listSearch} repeats)`);
				results.listSearch = await require('./cases/listSearch').run({ n8n, sandbox, credentials, repeats: counts.listSearch, log });
			}
			if (want('bulk')) {
				log(`case 1: bulk create (${counts.bulk} repeats)`);
				results.bulk = await require('./cases/bulk').run({ n8n, sandbox, credentials, repeats: counts.bulk, log });
			}
			if (want('bulk-small')) {
				log(`case 1b: bulk create at 60 per minute (${counts.bulkSmall} repeats)`);
				results.bulkSmall = await require('./cases/bulk').runSmall({ n8n, sandbox, credentials, repeats: counts.bulkSmall, log });
			}
			if (want('trigger')) {
				log(`case 3a: trigger (${counts.trigger} repeats of ${counts.triggerDeliveries} deliveries)`);
				results.trigger = await require('./cases/trigger').run({ n8n, repeats: counts.trigger, deliveries: counts.triggerDeliveries, log });
			}
			if (want('faults')) {
				log(`case 4: faults (${counts.faults} repeats, HTTP Request ${counts.faultsHttp})`);
				results.faults = await require('./cases/bulk').runFaults({
					n8n,
					sandbox,
					credentials,
					repeats: counts.faults,
					httpRepeats: counts.faultsHttp,
					log,
				});
			}
			if (want('sync')) {
				log(`case 5: sync 1,000 rows, 10 changed (${counts.sync} repeats)`);
				results.sync = await require('./cases/sync').run({ n8n, sandbox, credentials, repeats: counts.sync, log });
			}
			if (want('scan-report')) {
				log(`case 6: scan report over 1,000 codes, Last 30 Days (${counts.scanReport} repeats)`);
				results.scanReport = await require('./cases/scanReport').run({ n8n, sandbox, credentials, repeats: counts.scanReport, log });
			}
			if (want('update-many')) {
				log(`case 8: Update Many over 1,000 codes against Get Many → Update (${counts.updateMany} repeats)`);
				results.updateMany = await require('./cases/updateMany').run({ n8n, sandbox, credentials, repeats: counts.updateMany, log });
			}
			if (want('download-image')) {
				log(`case 9: Download Image, print files at the plan's floor (${counts.downloadImage} repeats)`);
				results.downloadImage = await require('./cases/downloadImage').run({ n8n, sandbox, credentials, repeats: counts.downloadImage, log });
			}
			if (want('window') || want('window-return-all')) {
				const parts = want('window') ? ['bulk', 'returnAll'] : ['returnAll'];
				log(`case window: adaptive vs fixed requests in flight (${parts.join(', ')})`);
				results.window = await require('./cases/window').run({ n8n, sandbox, credentials, repeats: counts.window, parts, log });
			}
			await n8n.stop();
			n8n = undefined;
		}

		// The same triggers on an n8n started with another expression-engine setting.
		const engines = [
			['trigger-lazy', 'triggerLazy', '3a″', { N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE: 'true' }],
			['trigger-legacy', 'triggerLegacy', '3a′', { N8N_EXPRESSION_ENGINE: 'legacy' }],
		];
		for (const [name, key, section, env] of engines) {
			if (!want(name)) continue;
			log(`case ${section}: trigger with ${Object.entries(env).map(([k, v]) => `${k}=${v}`).join(' ')} (another n8n)`);
			const started = await n8nLib.start({ sandbox: sandbox.sandbox, log, env });
			n8n = started.n8n;
			results.meta.versions.n8nNode ??= execFileSync(n8n.runtime.nodeBin, ['--version'], { encoding: 'utf8' }).trim().replace(/^v/, '');
			results[key] = await require('./cases/trigger').run({
				n8n,
				repeats: counts[key],
				deliveries: counts.triggerDeliveries,
				log,
				keys: ['ours', 'oursV2', 'webhookNode', 'careful'],
			});
			await n8n.stop();
			n8n = undefined;
		}

		if (want('trigger-queue')) {
			log(`case 3c: trigger in queue mode, 1 and 2 webhook processors (${counts.triggerQueue} repeats)`);
			results.triggerQueue = await require('./cases/triggerQueue').run({
				repeats: counts.triggerQueue,
				deliveries: counts.triggerDeliveries,
				log,
			});
		}
	} finally {
		await cleanup();
	}

	results.meta.durationMs = Date.now() - benchStarted;
	results.meta.loadavgEnd = require('node:os').loadavg().map((v) => v.toFixed(2)).join(' ');
	const markdown = render(results);
	fs.writeFileSync(rawFile, `${JSON.stringify(results, null, '\t')}\n`);
	fs.writeFileSync(outFile, markdown);
	process.stdout.write(`${markdown}\n`);
	log(`wrote ${path.relative(process.cwd(), outFile)} and ${path.relative(process.cwd(), rawFile)} in ${((Date.now() - benchStarted) / 60000).toFixed(1)} min`);
}

main().catch((error) => {
	process.stderr.write(`${error.stack || error}\n`);
	process.exit(1);
});
