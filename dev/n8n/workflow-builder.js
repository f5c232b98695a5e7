'use strict';
/**
 * The one builder of n8n workflow JSON, for the end-to-end tests (test/e2e, test/e2e-queue), the
 * editor's workflows (dev/editor/workflows.js) and the benchmarks (bench/lib/workflows.js). What
 * it builds is what n8n's "Download" writes and client.createWorkflow() imports
 * (dev/n8n/rest-client.js).
 *
 *   const { node, workflow, chain, TYPES } = require('./dev/n8n/workflow-builder');
 *   const start = node(TYPES.manualTrigger, {}, { name: 'Start' });
 *   const get = dynamicQr({ resource: 'qrCode', operation: 'get', qrCodeId: resourceId('…') },
 *     { name: 'Get' });
 *   workflow('Get a code', [start, get], chain('Start', 'Get'));
 *
 * Credentials are referenced by name (createWorkflow binds them to the credentials created on
 * that n8n); nodes placed nowhere are laid out in a row by workflow().
 */
const { randomUUID } = require('node:crypto');

const { CREDENTIAL_NAME } = require('../examples');

const PACKAGE = 'n8n-nodes-dynamic-qr';

/** The node types the workflows use. */
const TYPES = {
	dynamicQr: `${PACKAGE}.dynamicQr`,
	dynamicQrTool: `${PACKAGE}.dynamicQrTool`,
	dynamicQrTrigger: `${PACKAGE}.dynamicQrTrigger`,
	dynamicQrPollingTrigger: `${PACKAGE}.dynamicQrPollingTrigger`,
	manualTrigger: 'n8n-nodes-base.manualTrigger',
	noOp: 'n8n-nodes-base.noOp',
	set: 'n8n-nodes-base.set',
	splitOut: 'n8n-nodes-base.splitOut',
	code: 'n8n-nodes-base.code',
	removeDuplicates: 'n8n-nodes-base.removeDuplicates',
	if: 'n8n-nodes-base.if',
	httpRequest: 'n8n-nodes-base.httpRequest',
	webhook: 'n8n-nodes-base.webhook',
	agent: '@n8n/n8n-nodes-langchain.agent',
	lmChatOpenAi: '@n8n/n8n-nodes-langchain.lmChatOpenAi',
	mcpTrigger: '@n8n/n8n-nodes-langchain.mcpTrigger',
};

/** Distance between the nodes workflow() lays out. */
const SPACING = 220;

/**
 * One node. `options`: `name` (required), `typeVersion` (default 1), `position` (`[x, y]`;
 * default: workflow() places it), `credentials` (`{ [type]: { name } }`, see credentialRef());
 * any other key (`webhookId`, `onError`, `retryOnFail`, …) is a node setting, copied as is.
 */
function node(
	type,
	parameters = {},
	{ name, typeVersion = 1, position, credentials, ...settings } = {},
) {
	if (!name) throw new Error(`A ${type} node needs a name`);
	return {
		id: randomUUID(),
		name,
		type,
		typeVersion,
		...(position ? { position } : {}),
		parameters,
		...(credentials ? { credentials } : {}),
		...settings,
	};
}

/**
 * A node's `credentials` for one credential of `type`: `credential` is its name, or the
 * `{ id, name }` createCredential() answered.
 */
const credentialRef = (type, credential) => ({
	[type]:
		typeof credential === 'string'
			? { name: credential }
			: { id: credential.id, name: credential.name },
});

/**
 * A Dynamic QR node (QR Code, Card, … : `parameters` says which) with the Dynamic QR API
 * credential `options.credential` (a name or `{ id, name }`; default: CREDENTIAL_NAME, the one
 * dev/examples.js creates). Other options as node()'s.
 */
const dynamicQr = (parameters, { credential = CREDENTIAL_NAME, ...options } = {}) =>
	node(TYPES.dynamicQr, parameters, {
		credentials: credentialRef('dynamicQrApi', credential),
		...options,
	});

/**
 * n8n's Remove Duplicates node (version 2) keeping only items whose `webhook_id` no earlier
 * execution had: what a careful user of n8n's own nodes builds against repeated deliveries.
 * `options` as node()'s.
 */
const removeDuplicatesOnWebhookId = (options) =>
	node(
		TYPES.removeDuplicates,
		{
			operation: 'removeItemsSeenInPreviousExecutions',
			logic: 'removeItemsWithAlreadySeenKeyValues',
			dedupeValue: '={{ $json.webhook_id }}',
			options: {},
		},
		{ typeVersion: 2, ...options },
	);

/** A resource locator value (`mode`: 'id', 'list', 'url', …). */
const resourceId = (value, mode = 'id') => ({ __rl: true, mode, value });

/**
 * n8n's `connections` from links `[from, to, { type = 'main', output = 0, input = 0 }]`:
 * `from`'s output number `output` (of connection `type`: 'main', 'ai_tool', 'ai_languageModel',
 * …) into `to`'s input `input`. An IF node's false branch is `{ output: 1 }`.
 */
function connect(...links) {
	const connections = {};
	for (const [from, to, { type = 'main', output = 0, input = 0 } = {}] of links) {
		const outputs = ((connections[from] ??= {})[type] ??= []);
		while (outputs.length <= output) outputs.push([]);
		outputs[output].push({ node: to, type, index: input });
	}
	return connections;
}

/** Connects the nodes (by name) one after another; an array element fans out to several nodes. */
function chain(...names) {
	const links = [];
	for (let index = 0; index < names.length - 1; index += 1) {
		for (const from of [].concat(names[index])) {
			for (const to of [].concat(names[index + 1])) links.push([from, to]);
		}
	}
	return connect(...links);
}

/**
 * A workflow as n8n imports it. Nodes without a position are placed left to right, SPACING apart,
 * in the order given. `settings` is added to n8n's execution order v1.
 */
function workflow(name, nodes, connections = {}, { settings = {} } = {}) {
	return {
		name,
		nodes: nodes.map((entry, index) =>
			entry.position ? entry : { ...entry, position: [index * SPACING, 0] },
		),
		connections,
		settings: { executionOrder: 'v1', ...settings },
	};
}

module.exports = {
	TYPES,
	node,
	dynamicQr,
	removeDuplicatesOnWebhookId,
	credentialRef,
	resourceId,
	connect,
	chain,
	workflow,
	SPACING,
};
