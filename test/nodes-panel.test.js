'use strict';
/**
 * What n8n's nodes panel, canvas and "Docs" links take from the built package: each node's codex
 * file (categories, search aliases, documentation links), the documentation URLs of nodes and
 * credentials, the trigger's actions, and the canvas subtitles, evaluated with n8n-workflow's
 * expression engine as the editor evaluates them. The editor itself is looked at in
 * test/e2e/editor.e2e.js.
 */
const fs = require('node:fs');
const path = require('node:path');
const { NodeHelpers } = require('n8n-workflow');

const { DIST, evaluateExpression } = require('./engine/n8n-core');

const ROOT = path.resolve(__dirname, '..');
const packageJson = require('../package.json');
const readme = fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8');

/** The repository's GitHub page, from package.json (what a README anchor link is rooted at). */
const repositoryPage = packageJson.repository.url.replace(/^git\+/, '').replace(/\.git$/, '');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading) =>
	heading
		.trim()
		.toLowerCase()
		.replace(/[^\p{L}\p{N}\s-]/gu, '')
		.replace(/\s/g, '-');
const readmeAnchors = new Set(
	readme
		.split('\n')
		.filter((line) => /^#{1,6} /.test(line))
		.map((line) => anchorOf(line.replace(/^#+ /, ''))),
);

const load = (file) => require(path.join(DIST, file));
const nodeFiles = packageJson.n8n.nodes.map((file) => file.replace(/^dist\//, ''));
const nodes = nodeFiles.map((file) => {
	const [NodeClass] = Object.values(load(file));
	// A node with versions appears in the panel at the version new nodes get.
	const { description } = NodeHelpers.getVersionedNodeType(new NodeClass());
	return { file, description, codex: load(file.replace(/\.js$/, '.json')) };
});
const credentials = packageJson.n8n.credentials.map((file) => {
	const [CredentialClass] = Object.values(load(file.replace(/^dist\//, '')));
	return new CredentialClass();
});
const byName = (name) => nodes.find((node) => node.description.name === name);

/** Evaluates a subtitle for a node with these parameters, as the editor's canvas does. */
const subtitle = (description, parameters) =>
	evaluateExpression(description.subtitle, { parameters });

describe('codex files (nodes panel)', () => {
	test.each(nodeFiles)('%s has a codex for n8n-nodes-dynamic-qr with categories', (file) => {
		const { description, codex } = nodes.find((node) => node.file === file);
		expect(codex.node).toBe(`${packageJson.name}.${description.name}`);
		expect(codex.categories).toEqual(expect.arrayContaining(['Marketing & Content', 'Utility']));
	});

	test.each(nodeFiles)('%s is found under QR, barcode and short link', (file) => {
		const { codex } = nodes.find((node) => node.file === file);
		expect(codex.alias).toEqual(expect.arrayContaining(['QR', 'QR code', 'barcode', 'short link']));
	});
});

describe('documentation links', () => {
	const links = [
		...nodes.flatMap(({ description, codex }) => [
			[description.displayName, 'documentationUrl', description.documentationUrl],
			...['primaryDocumentation', 'credentialDocumentation'].flatMap((kind) =>
				codex.resources[kind].map((entry) => [description.displayName, kind, entry.url]),
			),
		]),
		...credentials.map((credential) => [
			credential.displayName,
			'documentationUrl',
			credential.documentationUrl,
		]),
	];

	test.each(links)('%s %s leads to a section of the README', (owner, kind, url) => {
		expect(url.startsWith(`${repositoryPage}#`)).toBe(true);
		expect(readmeAnchors).toContain(url.slice(repositoryPage.length + 1));
	});

	test('each node links to its own section, credentials to Credentials', () => {
		expect(byName('dynamicQr').description.documentationUrl).toBe(
			`${repositoryPage}#dynamic-qr-action-node`,
		);
		expect(byName('dynamicQrTrigger').description.documentationUrl).toBe(
			`${repositoryPage}#dynamic-qr-trigger`,
		);
		expect(byName('dynamicQrPollingTrigger').description.documentationUrl).toBe(
			`${repositoryPage}#dynamic-qr-polling-trigger`,
		);
		for (const credential of credentials)
			expect(credential.documentationUrl).toBe(`${repositoryPage}#credentials`);
	});
});

describe('panel texts', () => {
	test('the trigger’s actions read "On <Event>" in Title Case', () => {
		const events = byName('dynamicQrTrigger').description.properties.find(
			(property) => property.name === 'events',
		);
		expect(events.options.map((option) => option.action)).toEqual(
			events.options.map((option) => `On ${option.name}`),
		);
		for (const option of events.options) expect(option.name).toMatch(/^([A-Z][A-Za-z]*( |$))+$/);
	});

	test('the trigger’s description speaks for the merged panel entry (actions and triggers)', () => {
		const { description } = byName('dynamicQrTrigger').description;
		expect(description).toMatch(/^Create and re-point dynamic QR codes/);
		expect(description).toMatch(/start workflows when a code is scanned/);
	});

	test('no field text a user of the real service sees mentions the sandbox', () => {
		const texts = JSON.stringify([
			...nodes.map((node) => node.description),
			...credentials.map((credential) => credential.properties),
		]);
		expect(texts).not.toMatch(/sandbox/i);
	});

	test('Payload Input says what the payload is', () => {
		const payloadInputs = byName('dynamicQr').description.properties.filter(
			(property) => property.name === 'payloadInput',
		);
		expect(payloadInputs.length).toBeGreaterThan(0);
		for (const property of payloadInputs)
			expect(property.description).toMatch(/payload is what the code holds/);
	});
});

describe('canvas subtitles in words', () => {
	test.each([
		[{ resource: 'qrCode', operation: 'create' }, 'Create a QR code'],
		[{ resource: 'qrCode', operation: 'downloadImage' }, 'Download a QR code image'],
		[{ resource: 'webhookEndpoint', operation: 'getAll' }, 'Get many webhook endpoints'],
		[{ resource: 'account', operation: 'get' }, 'Get the account'],
	])('Dynamic QR %j reads "%s"', (parameters, expected) => {
		expect(subtitle(byName('dynamicQr').description, parameters)).toBe(expected);
	});

	test('Dynamic QR Trigger names its events', () => {
		expect(
			subtitle(byName('dynamicQrTrigger').description, {
				events: ['scan.created', 'qr_code.updated'],
			}),
		).toBe('Scan Created, QR Code Updated');
	});

	test.each([
		['newLead', 'New lead'],
		['newQrCode', 'New QR code'],
		['newScans', 'New scans'],
		['scanMilestone', 'Scan milestone'],
		['quietCode', 'Quiet code'],
		['endpointStopped', 'Webhook endpoint stopped'],
		['constructor', 'New lead'],
	])('Dynamic QR Polling Trigger on %s reads "%s"', (event, expected) => {
		expect(subtitle(byName('dynamicQrPollingTrigger').description, { event })).toBe(expected);
	});

	test('a value naming a member of every object is shown as it is, never as that member', () => {
		expect(
			subtitle(byName('dynamicQrTrigger').description, { events: ['constructor', 'toString'] }),
		).toBe('constructor, toString');
		for (const operation of ['constructor', '__proto__'])
			expect(subtitle(byName('dynamicQr').description, { resource: 'qrCode', operation })).toBe('');
	});
});
