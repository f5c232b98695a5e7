'use strict';
/**
 * The hints for n8n's AI workflow builder, as n8n's own loader takes them from the built package:
 * n8n-core's LazyPackageDirectoryLoader (what n8n uses at start for installed community packages)
 * and PackageDirectoryLoader (what an install from the nodes panel uses). The loader refuses a
 * builderHint on a resource, operation or mode property (n8n-core's validate-node-description),
 * and n8n skips a package whose loading throws, so a misplaced hint would take all three nodes
 * out of n8n. Needs dist/ (npm test builds first).
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { DIST, logLines } = require('./engine/n8n-core');
const { LazyPackageDirectoryLoader, PackageDirectoryLoader } = require('n8n-core');
const { NodeHelpers } = require('n8n-workflow');

const ROOT = path.resolve(__dirname, '..');
const packageJson = require('../package.json');

const LOADERS = [
	['LazyPackageDirectoryLoader', LazyPackageDirectoryLoader],
	['PackageDirectoryLoader', PackageDirectoryLoader],
];
const NODE_NAMES = ['dynamicQr', 'dynamicQrTrigger', 'dynamicQrPollingTrigger'];
/** The properties n8n's builder reads as discriminators, and the trigger's own mode choice. */
const DISCRIMINATOR = /^(resource|operation|mode)$|Mode$/;
/** Wire format the builder must not see (n8n's no-builder-hint-leakage rule, and any "{{"). */
const LEAKAGE =
	/\{\{|\bai_(agent|chain|document|embedding|languageModel|memory|outputParser|retriever|reranker|textSplitter|tool|vectorStore)\b/;

/** The descriptions as written, read from dist/ before any loader has touched them. */
const written = Object.fromEntries(
	packageJson.n8n.nodes.map((file) => {
		const [NodeClass] = Object.values(require(path.join(ROOT, file)));
		// A node with versions: the version new nodes get.
		const { description } = NodeHelpers.getVersionedNodeType(new NodeClass());
		return [description.name, description];
	}),
);

/** Where a property is shown: "name [resource: operation, operation]". */
function labelOf(property) {
	const { resource, operation } = property.displayOptions?.show ?? {};
	const scope = resource
		? ` [${resource.join(',')}${operation ? `: ${operation.join(',')}` : ''}]`
		: '';
	return `${property.name}${scope}`;
}

/** Every builderHint below a list of properties, with where it sits and what it sits on. */
function parameterHints(items, parent) {
	return (items ?? []).flatMap((item) => {
		const isOption = !('type' in item) && !('values' in item) && 'value' in item;
		const at = isOption
			? `${parent} = ${item.value}`
			: parent
				? `${parent}.${item.name}`
				: labelOf(item);
		const own = item.builderHint ? [{ at, item, hint: item.builderHint }] : [];
		return [...own, ...parameterHints(item.options, at), ...parameterHints(item.values, at)];
	});
}

/** Every string inside a hint, however deeply nested. */
const stringsIn = (value) =>
	typeof value === 'string'
		? [value]
		: value && typeof value === 'object'
			? Object.values(value).flatMap(stringsIn)
			: [];

describe.each(LOADERS)("n8n's %s", (loaderName, Loader) => {
	let loader;
	let logged;

	beforeAll(async () => {
		const before = logLines.length;
		loader = new Loader(ROOT);
		await loader.loadAll();
		logged = logLines.slice(before);
	});

	const versionsOf = (description) => [].concat(description.version).join(',');
	/** A node as loaded, at the version new nodes get. */
	const loaded = (name) =>
		loader.types.nodes.find(
			(description) =>
				description.name === name && versionsOf(description) === versionsOf(written[name]),
		);

	test('loads all three nodes, with nothing logged as a warning or an error', () => {
		expect(loader.packageName).toBe(packageJson.name);
		// A description per version of the Dynamic QR node and of the Dynamic QR Trigger.
		expect(
			loader.types.nodes.map((description) => `${description.name} ${versionsOf(description)}`),
		).toEqual(
			expect.arrayContaining([
				'dynamicQr 1',
				'dynamicQr 2',
				'dynamicQrTrigger 1',
				'dynamicQrTrigger 2',
				'dynamicQrPollingTrigger 1',
			]),
		);
		expect(loader.types.nodes).toHaveLength(5);
		// The loader's own log reaches the test's logger (so the check below can see a complaint).
		expect(logged.map((line) => line.message)).toContain(
			`Loaded all credentials and nodes from ${packageJson.name}`,
		);
		expect(logged.filter((line) => line.level === 'error' || line.level === 'warn')).toEqual([]);
	});

	test.each(NODE_NAMES)('%s exposes the node-level hint as written', (name) => {
		const { builderHint } = loaded(name);
		expect(builderHint).toEqual(written[name].builderHint);
		expect(typeof builderHint.searchHint).toBe('string');
		expect(builderHint.searchHint.trim().length).toBeGreaterThan(100);
		expect(builderHint.searchHint.length).toBeLessThanOrEqual(500);
		expect(builderHint.relatedNodes.length).toBeGreaterThanOrEqual(4);
		for (const { nodeType, relationHint } of builderHint.relatedNodes) {
			expect(nodeType).toMatch(
				/^(n8n-nodes-base|@n8n\/n8n-nodes-langchain|n8n-nodes-dynamic-qr)\.[a-zA-Z]+$/,
			);
			expect(nodeType).not.toBe(`${packageJson.name}.${name}`);
			expect(relationHint.trim().length).toBeGreaterThan(10);
		}
	});

	test('a related node of this package is one of its nodes', () => {
		const own = NODE_NAMES.flatMap((name) => loaded(name).builderHint.relatedNodes)
			.map(({ nodeType }) => nodeType)
			.filter((nodeType) => nodeType.startsWith(`${packageJson.name}.`));
		expect(own.length).toBeGreaterThan(0);
		for (const nodeType of own)
			expect(NODE_NAMES).toContain(nodeType.slice(packageJson.name.length + 1));
	});

	test('the parameter hints are where they were written, with their text', () => {
		for (const name of NODE_NAMES) {
			const seen = parameterHints(loaded(name).properties).map(({ at, hint }) => [at, hint]);
			expect(seen).toEqual(
				parameterHints(written[name].properties).map(({ at, hint }) => [at, hint]),
			);
		}
		const where = (name) => parameterHints(loaded(name).properties).map(({ at }) => at);
		expect(where('dynamicQr')).toEqual([
			'operation [qrCode] = upsert',
			'operation [qrCode] = delete',
			'operation [qrCode] = updateMany',
			'matchBy [qrCode: upsert]',
			'type [qrCode: create,upsert]',
			'payloadInput [qrCode: create,upsert]',
			'additionalFields [qrCode: create,upsert].idempotencyKey',
			'payloadInput [qrCode: update,updateMany]',
			'type [qrCode: update,updateMany]',
			'format [qrCode: downloadImage]',
			'sizeUnit [qrCode: downloadImage]',
			'period [qrCode: getScanReport]',
			'operation [staticQrCode] = generate',
			'type [staticQrCode: generate]',
			'payloadInput [staticQrCode: generate]',
			'format [staticQrCode: generate]',
			'sizeUnit [staticQrCode: generate]',
		]);
		expect(where('dynamicQrTrigger')).toEqual(['events', 'filters']);
		expect(where('dynamicQrPollingTrigger')).toEqual(['event', 'cardId']);
	});

	test('no hint sits on a resource, operation or mode property', () => {
		for (const name of NODE_NAMES) {
			const onDiscriminator = parameterHints(loaded(name).properties)
				.filter(({ item }) => 'type' in item && DISCRIMINATOR.test(item.name))
				.map(({ at }) => `${name}: ${at}`);
			expect(onDiscriminator).toEqual([]);
		}
	});

	test('every hint is plain text: no expression, no connection type', () => {
		for (const name of NODE_NAMES) {
			const description = loaded(name);
			const texts = [
				...stringsIn(description.builderHint),
				...parameterHints(description.properties).flatMap(({ hint }) => stringsIn(hint)),
			];
			expect(texts.length).toBeGreaterThan(1);
			for (const text of texts) {
				expect(text).not.toMatch(LEAKAGE);
				expect(text.trim()).not.toBe('');
			}
			for (const { hint } of parameterHints(description.properties)) {
				expect(Object.keys(hint)).toEqual(['propertyHint']);
				expect(hint.propertyHint.length).toBeLessThanOrEqual(300);
			}
		}
	});
});

describe("the loader's check is live in the n8n-core installed here", () => {
	let scratch;

	beforeAll(() => {
		scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'dynamic-qr-hint-probe-'));
	});
	afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

	/** A package whose only node is the built Dynamic QR with a hint on its first `discriminator`. */
	function probePackage(discriminator) {
		const dir = path.join(scratch, discriminator);
		fs.mkdirSync(path.join(dir, 'dist'), { recursive: true });
		fs.writeFileSync(
			path.join(dir, 'package.json'),
			JSON.stringify({
				name: `n8n-nodes-hint-probe-${discriminator}`,
				version: '1.0.0',
				n8n: { n8nNodesApiVersion: 1, nodes: ['dist/Probe.node.js'] },
			}),
		);
		fs.writeFileSync(
			path.join(dir, 'dist', 'Probe.node.js'),
			`'use strict';
const { DynamicQr } = require(${JSON.stringify(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'))});
class Probe extends DynamicQr {
	constructor() {
		super();
		for (const node of Object.values(this.nodeVersions)) {
			let hinted = false;
			const properties = node.description.properties.map((property) => {
				if (hinted || property.name !== ${JSON.stringify(discriminator)}) return property;
				hinted = true;
				return { ...property, builderHint: { propertyHint: 'A hint where n8n does not allow one' } };
			});
			node.description = { ...node.description, properties };
		}
	}
}
exports.Probe = Probe;
`,
		);
		return dir;
	}

	test.each(
		LOADERS.flatMap(([loaderName, Loader]) =>
			['resource', 'operation'].map((discriminator) => [loaderName, discriminator, Loader]),
		),
	)('%s refuses a hint on the %s property', async (loaderName, discriminator, Loader) => {
		const loader = new Loader(probePackage(discriminator));
		await expect(loader.loadAll()).rejects.toThrow(
			`builderHint on the "${discriminator}" discriminator property`,
		);
	});
});
