'use strict';
/**
 * Our verifier as n8n loads it: dist/nodes/DynamicQr/trigger/signature.js (built by
 * `npm run build`). When dist is stale (dev/build/fresh-dist.js says why), the source is
 * transpiled into a temporary folder instead (dist is left alone: other people build it).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT } = require('./machine');
const { staleReason } = require('../../dev/build/fresh-dist');

function loadVerifier() {
	const source = path.join(ROOT, 'nodes', 'DynamicQr', 'trigger', 'signature.ts');
	const built = path.join(ROOT, 'dist', 'nodes', 'DynamicQr', 'trigger', 'signature.js');
	const stale = staleReason();
	if (!stale) return { module: require(built), from: path.relative(ROOT, built) };
	const ts = require('typescript');
	const out = ts.transpileModule(fs.readFileSync(source, 'utf8'), {
		compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022, strict: true },
	}).outputText;
	const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamic-qr-bench-'));
	const file = path.join(dir, 'signature.js');
	fs.writeFileSync(file, out);
	try {
		return { module: require(file), from: `${path.relative(ROOT, source)} (transpiled: ${stale})` };
	} finally {
		fs.rmSync(dir, { recursive: true, force: true });
	}
}

module.exports = { loadVerifier };
