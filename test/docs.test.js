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
const { readRecipe } = require('../dev/n8n/event-claim-recipe');

const ROOT = path.resolve(__dirname, '..');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');
const packageJson = require('../package.json');
const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));
const { DynamicQrTrigger } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQrTrigger.node.js'));

/**
 * The names of the trigger's fields n8n's editor does not show in version 2: fields kept for
 * version 1 (`@version`), and the field the credentials depend on, which n8n shows as the
 * Credential field instead (with its option names).
 */
function triggerNamesHiddenInVersion2() {
	const { description } = new DynamicQrTrigger().nodeVersions[2];
	const credentialField = new Set(
		description.credentials.flatMap((credential) =>
			Object.keys(credential.displayOptions?.show ?? {}),
		),
	);
	return description.properties.flatMap((property) => {
		if (credentialField.has(property.name))
			return [property.displayName, ...property.options.map((option) => option.name)];
		const versions = property.displayOptions?.show?.['@version'];
		return versions && !versions.includes(2) ? [property.displayName] : [];
	});
}

/** The README's sentences (line breaks folded; code spans may hold dots). */
const readmeSentences = () =>
	readme
		.replace(/\s+/g, ' ')
		.split(/(?<=[.:;])\s+(?=[A-Z*(\[])/)
		.filter(Boolean);

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

	it('names a trigger field n8n shows only in version 1 only where it says so', () => {
		const hidden = triggerNamesHiddenInVersion2();
		expect(hidden).toEqual(
			expect.arrayContaining(['Endpoint', 'Register Automatically', 'Signing Secret']),
		);
		const unqualified = readmeSentences().filter(
			(sentence) =>
				hidden.some((name) => sentence.includes(`*${name}*`)) && !/[Vv]ersion 1/.test(sentence),
		);
		expect(unqualified).toEqual([]);
	});

	it('says publish (n8n 2.x) and names activate only as n8n 1.x says it, in the README and the examples’ notes', () => {
		const notes = fs
			.readdirSync(path.join(ROOT, 'examples'))
			.flatMap((file) => require(path.join(ROOT, 'examples', file)).nodes)
			.filter((node) => node.type === 'n8n-nodes-base.stickyNote')
			.map((node) => node.parameters.content);
		expect(notes.length).toBeGreaterThan(5);
		const outsideOneX = [readme, ...notes]
			.join('\n')
			.replace(/\(n8n 1\.x: [^)]*\)|where n8n 1\.x says [^;.]*/g, '');
		expect(outsideOneX.match(/[^\n]*\b(de|re-?)?activat[^\n]*/gi) ?? []).toEqual([]);
		expect(readme).toMatch(/\*\*publish\*\* and \*\*unpublish\*\*/);
	});

	it('names both webhook URL variables wherever it names one', () => {
		const paragraphs = readme.split(/\n\s*\n/).filter((text) => /`(N8N_)?WEBHOOK_URL`/.test(text));
		expect(paragraphs.length).toBeGreaterThan(1);
		for (const text of paragraphs) {
			expect([text.slice(0, 60), text.includes('`N8N_WEBHOOK_URL`')]).toEqual([
				text.slice(0, 60),
				true,
			]);
			expect([text.slice(0, 60), text.includes('`WEBHOOK_URL`')]).toEqual([
				text.slice(0, 60),
				true,
			]);
		}
	});

	it('gives the event-key recipe every setting the end-to-end test builds from it', () => {
		const recipe = readRecipe(readme);
		expect(recipe.createTable).toMatch(
			/^CREATE TABLE dynamic_qr_events \(\s*event_key text PRIMARY KEY/,
		);
		expect(recipe.claimQuery).toBe(
			'INSERT INTO dynamic_qr_events (event_key) VALUES ($1) ON CONFLICT DO NOTHING RETURNING event_key',
		);
		expect(() =>
			readRecipe(readme.replace('Output Data From *Input 1*', 'Output Data From *Both*')),
		).toThrow('no longer says: Output Data From *Input 1*');
	});
});
