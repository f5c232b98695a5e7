/**
 * Lints the package as n8n's community-package scanner does (`@n8n/scan-community-package`,
 * scanner/scanner.mjs in n8n-io/n8n, `buildScanConfig` and `analyzePackage`), and as
 * `n8n-node lint` does (@n8n/node-cli's eslint config, this repository's eslint.config.mjs).
 *
 * The scanner itself only scans a package published to npm with provenance: it downloads the
 * tarball and the attested source commit. Here the same ESLint configuration runs over
 *   - the sources:            package.json, {nodes,credentials}/**\/*.{js,ts,json}
 *   - the packed tarball:     its **\/*.js and package.json (what `npm pack` would publish)
 * with inline `eslint-disable` comments ignored (allowInlineConfig: false), as the scanner does.
 * Like the scanner, only errors fail; warnings are reported.
 *
 * Usage: node test/support/scanner-lint.mjs <sourceDir> <extractedTarballDir> [<extraDir>]
 * Prints one JSON object: { legs: [{ name, cwd, files, errors, warnings, messages }] }.
 * `extraDir` (optional) is linted with the scanner config as a third leg named "extra" (the
 * test uses it to prove the configuration catches violations).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import fs from 'node:fs';

const require = createRequire(import.meta.url);
const { ESLint } = require('eslint');
const { defineConfig } = require('eslint/config');
const { n8nCommunityNodesPlugin } = await import('@n8n/eslint-plugin-community-nodes');
const n8nNodesPlugin = require('eslint-plugin-n8n-nodes-base');
// The scanner imports @typescript-eslint/parser; here it is the one typescript-eslint (a
// dependency of @n8n/node-cli) ships.
const nodeCliRequire = createRequire(require.resolve('@n8n/node-cli/eslint'));
const parser = nodeCliRequire('typescript-eslint').parser;

/** The scanner's `buildScanConfig()`, rule for rule. */
function buildScanConfig() {
	return defineConfig(
		n8nCommunityNodesPlugin.configs.recommended,
		{ rules: { 'no-console': 'error' } },
		{ plugins: { 'n8n-nodes-base': n8nNodesPlugin } },
		{ files: ['package.json'], rules: { ...n8nNodesPlugin.configs.community.rules } },
		{
			files: ['**/credentials/**/*.ts'],
			rules: {
				...n8nNodesPlugin.configs.credentials.rules,
				'n8n-nodes-base/cred-class-field-documentation-url-miscased': 'off',
				'n8n-nodes-base/cred-class-field-type-options-password-missing': 'off',
			},
		},
		{
			files: ['**/nodes/**/*.ts'],
			rules: {
				...n8nNodesPlugin.configs.nodes.rules,
				'n8n-nodes-base/node-class-description-inputs-wrong-regular-node': 'off',
				'n8n-nodes-base/node-class-description-outputs-wrong': 'off',
				'n8n-nodes-base/node-param-type-options-max-value-present': 'off',
			},
		},
		{ files: ['**/*.json'], languageOptions: { parser } },
		{ files: ['**/*.ts'], languageOptions: { parser } },
	);
}

/** The files the scanner hands to ESLint (fast-glob there; fs.globSync is Node 22+). */
function listFiles(cwd, { sourceLeg }) {
	const files = [];
	const walk = (dir) => {
		for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
			const full = path.join(dir, entry.name);
			if (entry.isDirectory()) {
				if (entry.name !== 'node_modules') walk(full);
			} else files.push(path.relative(cwd, full));
		}
	};
	if (sourceLeg) {
		for (const top of ['nodes', 'credentials'])
			if (fs.existsSync(path.join(cwd, top))) walk(path.join(cwd, top));
		return ['package.json', ...files.filter((file) => /\.(js|ts|json)$/.test(file))].sort();
	}
	walk(cwd);
	return files
		.filter(
			(file) => file === 'package.json' || (file.endsWith('.js') && file !== 'package-lock.json'),
		)
		.sort();
}

async function lintLeg(name, cwd, files, options) {
	const eslint = new ESLint({ cwd, allowInlineConfig: false, ...options });
	const results = await eslint.lintFiles(files.map((file) => path.join(cwd, file)));
	return {
		name,
		cwd,
		files: results.map((result) => path.relative(cwd, result.filePath)).sort(),
		errors: results.reduce((sum, result) => sum + result.errorCount, 0),
		warnings: results.reduce((sum, result) => sum + result.warningCount, 0),
		messages: results.flatMap((result) =>
			result.messages.map((message) => ({
				file: path.relative(cwd, result.filePath),
				line: message.line,
				severity: message.severity === 2 ? 'error' : 'warning',
				rule: message.ruleId,
				message: message.message,
			})),
		),
	};
}

const [sourceDir, tarballDir, extraDir] = process.argv.slice(2).map((dir) => path.resolve(dir));
const scanner = { overrideConfigFile: true, overrideConfig: buildScanConfig() };
const legs = [
	// `n8n-node lint`: the repository's eslint.config.mjs (@n8n/node-cli's config).
	await lintLeg('node-cli config: sources', sourceDir, ['nodes', 'credentials', 'package.json'], {
		overrideConfigFile: path.join(sourceDir, 'eslint.config.mjs'),
	}),
	await lintLeg(
		'scanner config: sources',
		sourceDir,
		listFiles(sourceDir, { sourceLeg: true }),
		scanner,
	),
	await lintLeg(
		'scanner config: packed tarball',
		tarballDir,
		listFiles(tarballDir, { sourceLeg: false }),
		scanner,
	),
];
if (extraDir)
	legs.push(await lintLeg('extra', extraDir, listFiles(extraDir, { sourceLeg: false }), scanner));
process.stdout.write(`${JSON.stringify({ legs })}\n`);
