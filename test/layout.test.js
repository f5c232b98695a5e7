'use strict';
/**
 * The direction of imports README "Layout" promises, read from the sources: nodes/ imports
 * nothing outside itself; within nodes/DynamicQr each part (actions, trigger, polling, methods)
 * imports only its own folder, api/ and qrTypes.ts; api/ imports only itself; dev/ never imports
 * test/.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const NODE_ROOT = path.join(ROOT, 'nodes', 'DynamicQr');
const PARTS = ['actions', 'trigger', 'polling', 'methods', 'api'];

function filesBelow(folder, pattern) {
	return fs.readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
		const full = path.join(folder, entry.name);
		if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : filesBelow(full, pattern);
		return pattern.test(entry.name) ? [full] : [];
	});
}

/** Relative imports and requires of a file, resolved to paths (without extension). */
function relativeImports(file) {
	const text = fs.readFileSync(file, 'utf8');
	const specifiers = [
		...text.matchAll(/\bfrom\s+'([^']+)'/g),
		...text.matchAll(/\brequire\(\s*'([^']+)'\s*\)/g),
	].map((match) => match[1]);
	return specifiers
		.filter((specifier) => specifier.startsWith('.'))
		.map((specifier) => path.resolve(path.dirname(file), specifier));
}

const inside = (target, folder) => target === folder || target.startsWith(folder + path.sep);

test('nodes/ imports nothing outside itself but n8n-workflow and crypto', () => {
	const problems = [];
	for (const file of filesBelow(path.join(ROOT, 'nodes'), /\.ts$/)) {
		const text = fs.readFileSync(file, 'utf8');
		for (const [, specifier] of text.matchAll(/\bfrom\s+'([^']+)'/g)) {
			const allowed =
				specifier === 'n8n-workflow' ||
				specifier === 'crypto' ||
				(specifier.startsWith('.') &&
					inside(path.resolve(path.dirname(file), specifier), path.join(ROOT, 'nodes')));
			if (!allowed) problems.push(`${path.relative(ROOT, file)} imports ${specifier}`);
		}
	}
	expect(problems).toEqual([]);
});

test.each(PARTS)('nodes/DynamicQr/%s imports only itself, api/ and qrTypes.ts', (part) => {
	const own = path.join(NODE_ROOT, part);
	const allowed = [own, path.join(NODE_ROOT, 'api'), path.join(NODE_ROOT, 'qrTypes')];
	if (part === 'api') allowed.splice(1);
	const files = filesBelow(own, /\.ts$/);
	expect(files.length).toBeGreaterThan(0);
	const problems = files.flatMap((file) =>
		relativeImports(file)
			.filter((target) => !allowed.some((folder) => inside(target, folder)))
			.map((target) => `${path.relative(ROOT, file)} imports ${path.relative(ROOT, target)}`),
	);
	expect(problems).toEqual([]);
});

test('dev/ never imports test/', () => {
	const problems = filesBelow(path.join(ROOT, 'dev'), /\.(c|m)?js$/).flatMap((file) =>
		relativeImports(file)
			.filter((target) => inside(target, path.join(ROOT, 'test')))
			.map((target) => `${path.relative(ROOT, file)} imports ${path.relative(ROOT, target)}`),
	);
	expect(problems).toEqual([]);
});
