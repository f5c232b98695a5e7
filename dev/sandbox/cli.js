#!/usr/bin/env node
'use strict';

// `npm run sandbox [-- --port N --host H --rate-limit N --latency MS --reading NAME …]`: the first
// stdout line is the JSON startup object; logs go to stderr; runs until killed. `--reading` may be
// given several times (readings/ lists the names).

const { startSandbox } = require('./index');

const FLAGS = {
	'--port': { option: 'port', parse: Number },
	'--host': { option: 'host', parse: String },
	'--rate-limit': { option: 'rateLimitPerMinute', parse: Number },
	'--latency': { option: 'latencyMs', parse: Number },
	'--reading': { option: 'readings', parse: String, repeats: true },
};

function parseArgs(argv) {
	const options = {};
	for (let index = 0; index < argv.length; index += 1) {
		const [flag, inlineValue] = argv[index].split(/=(.*)/s);
		const spec = FLAGS[flag];
		if (!spec) throw new Error(`Unknown option ${flag}. Known: ${Object.keys(FLAGS).join(', ')}.`);
		const raw = inlineValue !== undefined ? inlineValue : argv[++index];
		if (raw === undefined) throw new Error(`${flag} needs a value.`);
		const value = spec.parse(raw);
		if (typeof value === 'number' && !Number.isFinite(value))
			throw new Error(`${flag} needs a number (got "${raw}").`);
		options[spec.option] = spec.repeats ? [...(options[spec.option] ?? []), value] : value;
	}
	return options;
}

async function main() {
	const log = (line) => process.stderr.write(`${line}\n`);
	const sandbox = await startSandbox({ ...parseArgs(process.argv.slice(2)), log });
	const { siteUrl, baseUrl, keys, cardId } = sandbox;
	process.stdout.write(
		`${JSON.stringify({ siteUrl, baseUrl, keys: { readWrite: keys.readWrite, readOnly: keys.readOnly }, cardId })}\n`,
	);
	log(
		`Sandbox listening on ${siteUrl} (API ${baseUrl}); every key: GET ${siteUrl}/__sandbox/info. Ctrl+C stops it.`,
	);
	const stop = () => sandbox.close().then(() => process.exit(0));
	process.on('SIGINT', stop);
	process.on('SIGTERM', stop);
}

main().catch((error) => {
	process.stderr.write(`sandbox: ${error.message}\n`);
	process.exit(1);
});
