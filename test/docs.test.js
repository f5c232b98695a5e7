'use strict';
/**
 * README and package.json move with the code: every operation that exists is documented, every
 * documented one exists, the type table is the one rendered from the built QR_TYPES
 * (dev/docs/qr-types-table.js), and every file package.json announces to n8n is in the build.
 */
const fs = require('node:fs');
const path = require('node:path');
const { DIST } = require('./engine/n8n-core');
const { qrTypesMarkdownTable } = require('../dev/docs/qr-types-table');

const ROOT = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const packageJson = require('../package.json');
const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));

/** [resource display name, operation display name] for every operation the node offers. */
function nodeOperations() {
	const { properties } = new DynamicQr().getNodeType().description;
	const resources = properties.find((property) => property.name === 'resource').options;
	return resources.flatMap((resource) => {
		const operationProperty = properties.find(
			(property) =>
				property.name === 'operation' &&
				property.displayOptions?.show?.resource?.includes(resource.value),
		);
		return operationProperty.options.map((operation) => [resource.name, operation.name]);
	});
}

/** The same pairs, read from the README's table of the action node. */
function readmeOperations() {
	const section = readme.slice(
		readme.indexOf('### Dynamic QR (action node)'),
		readme.indexOf('#### QR code types'),
	);
	return section
		.split('\n')
		.filter((line) => line.startsWith('| ') && !line.startsWith('| Resource'))
		.map((line) =>
			line
				.split('|')
				.slice(1, 3)
				.map((cell) => cell.trim()),
		);
}

describe('documentation', () => {
	it('lists exactly the operations the action node has', () => {
		const documented = readmeOperations();
		expect(documented.length).toBeGreaterThan(10);
		expect(documented.sort()).toEqual(nodeOperations().sort());
	});

	it('shows the QR type table generated from the type table', () => {
		const table = qrTypesMarkdownTable();
		expect(table.split('\n')).toHaveLength(16); // header, rule and the 14 types
		expect(readme).toContain(table);
	});

	it('announces to n8n only files that the build produced', () => {
		const announced = [...packageJson.n8n.nodes, ...packageJson.n8n.credentials];
		expect(announced.length).toBe(5); // 3 nodes, 2 credentials
		for (const file of announced) {
			expect(fs.existsSync(path.join(ROOT, file))).toBe(true);
		}
	});

	it('documents every node in the README and the changelog', () => {
		const changelog = fs.readFileSync(path.join(ROOT, 'CHANGELOG.md'), 'utf8');
		for (const file of packageJson.n8n.nodes) {
			const module = require(path.join(ROOT, file));
			const { displayName } = new (Object.values(module)[0])().description;
			expect(readme).toContain(`### ${displayName}`);
			expect(changelog).toContain(displayName);
		}
	});
});
