#!/usr/bin/env node
'use strict';
/**
 * Provisions the n8n versions the end-to-end tests run (or those named) into the cache, with
 * progress, so a fresh machine pays the install once and visibly:
 *   node dev/cli/provision-n8n.js                 # N8N_VERSIONS.current and .previous
 *   node dev/cli/provision-n8n.js 2.41.1 previous        # a version, or a name in N8N_VERSIONS
 */
const { ensureN8n, N8N_VERSIONS, cacheRoot } = require('../n8n/runtime');

async function main() {
	const wanted = process.argv.slice(2);
	const versions = (wanted.length ? wanted : ['current', 'previous']).map(
		(name) => N8N_VERSIONS[name] ?? name,
	);
	const log = (line) => process.stderr.write(`[provision] ${line}\n`);
	for (const version of versions) {
		const started = Date.now();
		const paths = await ensureN8n(version, { log });
		log(`n8n ${version} ready in ${paths.dir} (${Math.round((Date.now() - started) / 1000)} s)`);
	}
	log(`cache: ${cacheRoot()}`);
}

main().catch((error) => {
	process.stderr.write(`[provision] ${error.message}\n`);
	process.exit(1);
});
