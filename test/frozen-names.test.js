'use strict';
/**
 * The names saved workflows and live activations depend on: node and credential names, node
 * versions, credentials per node, the webhook path, every parameter name with its type, every
 * option value and resource-locator mode. test/fixtures/frozen-names-0.1.0.txt lists them as
 * version 0.1.0 exposed them; this reads the same from the built package (as n8n loads it,
 * through package.json's "n8n" section) and fails when one is gone or changed type. A deliberate
 * change is a new node version, and the old version keeps the old names.
 */
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.join(__dirname, '..');
const FROZEN = path.join(__dirname, 'fixtures', 'frozen-names-0.1.0.txt');

function namesOf(properties, prefix, where, out) {
	for (const property of properties ?? []) {
		const name = `${prefix}${property.name}`;
		if (property.type !== 'notice') out.add(`${where} param ${name} (${property.type})`);
		for (const option of property.options ?? []) {
			if (option?.value !== undefined && typeof option.value !== 'object') {
				out.add(`${where} value ${name}=${option.value}`);
			}
			// fixedCollection groups, and the fields of a collection
			if (option?.name && (option.values || option.options)) {
				namesOf(option.values ?? [], `${name}.${option.name}.`, where, out);
			}
			if (option?.displayName && option.name && !option.values && option.type) {
				namesOf([option], `${name}.`, where, out);
			}
		}
		for (const mode of property.modes ?? []) out.add(`${where} mode ${name}=${mode.name}`);
	}
}

/** Every name the built package exposes, in the frozen list's form. */
function builtNames() {
	const { n8n } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
	const out = new Set();
	const instanceOf = (file) => new (Object.values(require(path.join(ROOT, file)))[0])();
	for (const file of n8n.nodes) {
		const node = instanceOf(file);
		// A node with versions has a description per version, each listed as its own.
		const descriptions = node.nodeVersions
			? Object.values(node.nodeVersions).map((version) => version.description)
			: [node.description];
		for (const description of descriptions) {
			const where = `node ${description.name}`;
			for (const version of [].concat(description.version)) out.add(`${where} version ${version}`);
			for (const credential of description.credentials ?? []) {
				out.add(`${where} credential ${credential.name}`);
			}
			for (const webhook of description.webhooks ?? []) {
				out.add(`${where} webhook ${webhook.name} ${webhook.httpMethod} ${webhook.path}`);
			}
			namesOf(description.properties, '', where, out);
		}
	}
	for (const file of n8n.credentials) {
		const credential = instanceOf(file);
		out.add(`credential ${credential.name}`);
		for (const property of credential.properties) {
			out.add(`credential ${credential.name} param ${property.name}`);
		}
	}
	return out;
}

const frozen = fs.readFileSync(FROZEN, 'utf8').split('\n').filter(Boolean);

/**
 * The frozen lines the build lacks. `node <name> versions 1,2` stays while the node has each
 * version it lists, whether its versions share one description or each has its own.
 */
const missingFrom = (built) =>
	frozen.filter((line) => {
		const [, node, versions] = /^node (\S+) versions (.+)$/.exec(line) ?? [];
		if (!versions) return !built.has(line);
		return versions.split(',').some((version) => !built.has(`node ${node} version ${version}`));
	});

test('every name of version 0.1.0 is still exposed, with the same type', () => {
	const built = builtNames();
	expect(frozen.length).toBeGreaterThan(200);
	expect(missingFrom(built)).toEqual([]);
});

test('the check catches a parameter that is renamed or changes type', () => {
	const built = builtNames();
	const renamed = 'node dynamicQr param additionalFields.idempotencyKey (string)';
	const retyped = 'node dynamicQrTrigger param events (multiOptions)';
	expect(built.has(renamed) && built.has(retyped)).toBe(true);
	built.delete(renamed);
	built.delete(retyped);
	built.add('node dynamicQrTrigger param events (options)');
	expect(missingFrom(built)).toEqual([renamed, retyped]);
});

test('the check catches a node version that is gone', () => {
	const built = builtNames();
	expect(missingFrom(built)).toEqual([]);
	built.delete('node dynamicQrTrigger version 1');
	expect(missingFrom(built)).toEqual(['node dynamicQrTrigger versions 1,2']);
});

test('the package still loads its nodes and credentials from the files package.json names', () => {
	const { n8n } = require(path.join(ROOT, 'package.json'));
	for (const file of [...n8n.nodes, ...n8n.credentials]) {
		expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
	}
	expect(n8n.nodes.map((file) => path.basename(file))).toEqual([
		'DynamicQr.node.js',
		'DynamicQrTrigger.node.js',
		'DynamicQrPollingTrigger.node.js',
	]);
});
