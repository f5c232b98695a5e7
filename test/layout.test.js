'use strict';
/**
 * The layout README "Layout" promises, read from the sources. The direction of imports: nodes/
 * imports nothing outside itself; within nodes/DynamicQr each part (actions, trigger, polling,
 * methods) imports only its own folder, api/ and qrTypes.ts; api/ imports only itself; dev/ never
 * imports test/. The mirrors: test/ holds only the folders listed below, and a test file in
 * test/actions, test/trigger, test/polling, test/api or test/methods is named after a module or
 * folder of the same part of nodes/DynamicQr (or is one of the few tests of a whole node); the
 * tooling's own tests sit in a test/ folder beside the modules they test (dev/sandbox/test).
 * Package-level tests (this file, docs, examples, frozen names…) stay at the root of test/.
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

const TEST_ROOT = path.join(ROOT, 'test');

/** The folders of test/: one per part of nodes/DynamicQr, then the rest. */
const TEST_FOLDERS = [
	...PARTS,
	'credentials',
	'readings',
	'e2e',
	'e2e-queue',
	'engine',
	'support',
	'fixtures',
];

/**
 * Tests of a whole node, named after what they exercise across its modules rather than after one
 * module (each runs the node as n8n does).
 */
const WHOLE_NODE_TESTS = {
	actions: [
		'operations',
		'bulk',
		'mixedTypes',
		'errors',
		'parameterIssues',
		'headersAndLimits',
		'valuesFromExpressions',
	],
	trigger: ['webhookTrigger', 'valuesFromExpressions'],
	polling: [],
	api: [],
	methods: [],
};

const testName = (file) => path.basename(file).slice(0, -'.test.js'.length);

test('test/ holds only the folders of the mirror and the shared ones', () => {
	const folders = fs
		.readdirSync(TEST_ROOT, { withFileTypes: true })
		.filter((entry) => entry.isDirectory())
		.map((entry) => entry.name);
	expect(folders.filter((folder) => !TEST_FOLDERS.includes(folder))).toEqual([]);
});

test.each(PARTS)(
	'every test in test/%s is named after a module or folder of the same part of nodes/DynamicQr',
	(part) => {
		const own = path.join(NODE_ROOT, part);
		const names = new Set(
			fs
				.readdirSync(own, { recursive: true, withFileTypes: true })
				.map((entry) => entry.name.split('.')[0]),
		);
		const tests = filesBelow(path.join(TEST_ROOT, part), /\.test\.js$/).map(testName);
		expect(tests.length).toBeGreaterThan(0);
		expect(
			tests.filter((name) => !names.has(name) && !WHOLE_NODE_TESTS[part].includes(name)),
		).toEqual([]);
		// The list stays honest: every whole-node test it names exists.
		expect(WHOLE_NODE_TESTS[part].filter((name) => !tests.includes(name))).toEqual([]);
	},
);

test('dev/ tests sit in a test/ folder beside the modules they test, and import them', () => {
	const tests = filesBelow(path.join(ROOT, 'dev'), /\.test\.js$/);
	expect(tests.length).toBeGreaterThan(0);
	const problems = tests.flatMap((file) => {
		const own = path.relative(ROOT, file);
		const testFolder = path.dirname(file);
		if (path.basename(testFolder) !== 'test') return [`${own} is not in a test/ folder`];
		const moduleFolder = path.dirname(testFolder);
		// Imported directly or through a helper of the same test/ folder.
		const imports = relativeImports(file).flatMap((target) =>
			inside(target, testFolder) && fs.existsSync(`${target}.js`)
				? [target, ...relativeImports(`${target}.js`)]
				: [target],
		);
		const tested = imports.filter(
			(target) =>
				inside(target, moduleFolder) &&
				!inside(target, testFolder) &&
				(fs.existsSync(target) || fs.existsSync(`${target}.js`)),
		);
		return tested.length > 0
			? []
			: [`${own} imports nothing of ${path.relative(ROOT, moduleFolder)}/`];
	});
	expect(problems).toEqual([]);
});
