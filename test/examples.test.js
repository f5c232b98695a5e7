'use strict';
/**
 * The example workflows (examples/*.json) without n8n: well-formed, wired, using only parameters
 * our nodes have, referencing the credential by name, and listed in the README. `npm run test:e2e`
 * imports and runs each of them in real n8n.
 */
const fs = require('node:fs');
const path = require('node:path');

const { NodeHelpers } = require('n8n-workflow');

const { DynamicQr } = require('../dist/nodes/DynamicQr/DynamicQr.node');
const { DynamicQrTrigger } = require('../dist/nodes/DynamicQr/DynamicQrTrigger.node');
const { DynamicQrPollingTrigger } = require('../dist/nodes/DynamicQr/DynamicQrPollingTrigger.node');
const { loadExamples, CREDENTIAL_NAME } = require('../dev/examples');
const { n8nPreRunCheck } = require('./support/parameter-issues');

const examples = loadExamples();
const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
const ours = {
	'n8n-nodes-dynamic-qr.dynamicQr': new DynamicQr(),
	'n8n-nodes-dynamic-qr.dynamicQrTrigger': new DynamicQrTrigger(),
	'n8n-nodes-dynamic-qr.dynamicQrPollingTrigger': new DynamicQrPollingTrigger(),
};
/** The description of a node of ours at the version the example saved. */
const descriptionOf = (node) =>
	NodeHelpers.getVersionedNodeType(ours[node.type], node.typeVersion).description;

describe.each(Object.entries(examples))('examples/%s', (file, workflow) => {
	test('is a workflow n8n can import: named nodes with ids, connections between them', () => {
		expect(typeof workflow.name).toBe('string');
		expect(workflow.settings).toEqual({ executionOrder: 'v1' });
		const names = workflow.nodes.map((node) => node.name);
		expect(new Set(names).size).toBe(names.length);
		for (const node of workflow.nodes) {
			expect(node).toEqual(
				expect.objectContaining({
					id: expect.any(String),
					type: expect.any(String),
					typeVersion: expect.any(Number),
				}),
			);
			expect(node.position).toHaveLength(2);
		}
		for (const [from, outputs] of Object.entries(workflow.connections)) {
			expect(names).toContain(from);
			for (const target of outputs.main.flat()) expect(names).toContain(target.node);
		}
	});

	test('uses only parameters our nodes have, and the credential by name', () => {
		const ourNodes = workflow.nodes.filter((node) => ours[node.type]);
		expect(ourNodes.length).toBeGreaterThan(0);
		for (const node of ourNodes) {
			const description = descriptionOf(node);
			// n8n adds Poll Times to every polling node.
			const known = new Set([
				...description.properties.map((property) => property.name),
				...(description.polling ? ['pollTimes'] : []),
			]);
			for (const parameter of Object.keys(node.parameters)) {
				expect(`${node.name}: ${parameter} ${known.has(parameter) ? 'exists' : 'is unknown'}`).toBe(
					`${node.name}: ${parameter} exists`,
				);
			}
			expect(node.credentials).toEqual({ dynamicQrApi: { name: CREDENTIAL_NAME } });
			if (node.type.endsWith('.dynamicQrTrigger'))
				expect(node.webhookId).toMatch(/^[0-9a-f-]{36}$/);
		}
	});

	test('passes the check n8n makes before a run (no parameter issues on our nodes)', () => {
		for (const node of workflow.nodes.filter((entry) => ours[entry.type])) {
			expect([node.name, n8nPreRunCheck(descriptionOf(node), node.parameters).issues]).toEqual([
				node.name,
				null,
			]);
		}
	});

	test('is listed in the README', () => {
		expect(readme).toContain(`(examples/${file})`);
	});
});
