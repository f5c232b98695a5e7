'use strict';
/**
 * n8n verification: the community-package scanner's lint configuration (and `n8n-node lint`'s)
 * applied to the sources and to the packed tarball, as n8n would see the published package.
 * The scanner itself (`npx @n8n/scan-community-package n8n-nodes-dynamic-qr`) needs the package
 * on npm with provenance; test/support/scanner-lint.mjs runs its ESLint configuration locally.
 * Needs dist/ (npm test builds first).
 */
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));

/** Source files below a folder, relative to the repository root. */
function sourceFiles(folder, pattern) {
	const found = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) walk(full);
			else if (pattern.test(entry.name)) found.push(path.relative(ROOT, full));
		}
	};
	walk(path.join(ROOT, folder));
	return found;
}

const describeLeg = (leg) =>
	`${leg.name}: ${leg.errors} errors, ${leg.warnings} warnings\n${leg.messages
		.map((m) => `  ${m.severity} ${m.file}:${m.line} ${m.rule} ${m.message}`)
		.join('\n')}`;

describe('community-package scanner lint (sources and packed tarball)', () => {
	let scratch;
	let tarballDir;
	let legs;

	beforeAll(() => {
		if (!fs.existsSync(path.join(ROOT, manifest.n8n.nodes[0]))) {
			throw new Error('dist/ is missing: run `npm run build` first (npm test does)');
		}
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamic-qr-scan-'));
		const out = execFileSync(
			'npm',
			['pack', '--json', '--pack-destination', scratch, '--loglevel=error'],
			{
				cwd: ROOT,
				encoding: 'utf8',
			},
		);
		const [{ filename }] = JSON.parse(out.slice(out.indexOf('[')));
		tarballDir = path.join(scratch, 'package');
		fs.mkdirSync(tarballDir);
		execFileSync('tar', [
			'-xzf',
			path.join(scratch, filename),
			'-C',
			tarballDir,
			'--strip-components=1',
		]);

		// A package that breaks the rules, to prove the configuration is really enforced.
		const bad = path.join(scratch, 'bad');
		fs.mkdirSync(path.join(bad, 'dist'), { recursive: true });
		fs.writeFileSync(
			path.join(bad, 'package.json'),
			JSON.stringify({ name: 'n8n-nodes-bad', version: '1.0.0', dependencies: { axios: '1.0.0' } }),
		);
		fs.writeFileSync(
			path.join(bad, 'dist', 'Bad.node.js'),
			'"use strict";\nconst fs = require("fs");\nsetTimeout(() => console.log(fs.readFileSync("x")), 1);\n',
		);

		const json = execFileSync(
			process.execPath,
			[path.join(__dirname, 'support', 'scanner-lint.mjs'), ROOT, tarballDir, bad],
			{
				cwd: ROOT,
				encoding: 'utf8',
				maxBuffer: 32 * 1024 * 1024,
				// Not jest's NODE_ENV=test: eslint-plugin-n8n-nodes-base then checks a fixed dummy file
				// name instead of the real one (its own test mode).
				env: Object.fromEntries(
					Object.entries(process.env).filter(([name]) => name !== 'NODE_ENV'),
				),
			},
		);
		legs = Object.fromEntries(JSON.parse(json).legs.map((leg) => [leg.name, leg]));
	});

	afterAll(() => {
		if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
	});

	test("n8n-node lint's config (eslint.config.mjs) passes on nodes, credentials and package.json, inline disables ignored", () => {
		const leg = legs['node-cli config: sources'];
		expect(leg.files).toEqual(
			expect.arrayContaining([
				'package.json',
				...sourceFiles('nodes', /\.ts$/),
				...sourceFiles('credentials', /\.ts$/),
			]),
		);
		expect({ errors: leg.errors, warnings: leg.warnings }).toEqual({ errors: 0, warnings: 0 });
		if (leg.messages.length) throw new Error(describeLeg(leg));
	});

	test("the scanner's config passes on the sources it lints (package.json, nodes/, credentials/)", () => {
		const leg = legs['scanner config: sources'];
		expect(leg.files).toEqual(
			[
				'package.json',
				...sourceFiles('nodes', /\.(js|ts|json)$/),
				...sourceFiles('credentials', /\.(js|ts|json)$/),
			].sort(),
		);
		if (leg.errors || leg.warnings) throw new Error(describeLeg(leg));
	});

	test("the scanner's config passes on the packed tarball's JavaScript and package.json", () => {
		const leg = legs['scanner config: packed tarball'];
		const declared = [...manifest.n8n.nodes, ...manifest.n8n.credentials];
		expect(leg.files).toEqual(expect.arrayContaining(['package.json', ...declared]));
		expect(leg.files.filter((file) => file.endsWith('.js')).length).toBeGreaterThanOrEqual(
			declared.length,
		);
		if (leg.errors || leg.warnings) throw new Error(describeLeg(leg));
	});

	test('the tarball holds what n8n loads: every declared node and credential, every icon, no sources or tests', () => {
		for (const file of [...manifest.n8n.nodes, ...manifest.n8n.credentials]) {
			expect(fs.existsSync(path.join(tarballDir, file))).toBe(true);
		}
		for (const icon of [
			...sourceFiles('nodes', /\.svg$/),
			...sourceFiles('credentials', /\.svg$/),
		]) {
			expect(fs.existsSync(path.join(tarballDir, 'dist', icon))).toBe(true);
		}
		const top = fs.readdirSync(tarballDir).sort();
		expect(top).toEqual(
			expect.arrayContaining(['LICENSE.md', 'README.md', 'dist', 'package.json']),
		);
		for (const unwanted of [
			'nodes',
			'credentials',
			'test',
			'scripts',
			'examples',
			'node_modules',
		]) {
			expect(top).not.toContain(unwanted);
		}
		const packed = JSON.parse(fs.readFileSync(path.join(tarballDir, 'package.json'), 'utf8'));
		expect(packed.dependencies ?? {}).toEqual({});
	});

	test('the configuration is enforced: a package breaking the rules fails it', () => {
		const leg = legs.extra;
		const rules = new Set(leg.messages.filter((m) => m.severity === 'error').map((m) => m.rule));
		expect(leg.errors).toBeGreaterThan(0);
		for (const rule of [
			'@n8n/community-nodes/no-restricted-globals',
			'@n8n/community-nodes/no-restricted-imports',
			'no-console',
			'@n8n/community-nodes/valid-peer-dependencies',
			'n8n-nodes-base/community-package-json-license-missing',
		]) {
			expect(rules).toContain(rule);
		}
	});
});
