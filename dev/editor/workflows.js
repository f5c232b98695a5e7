'use strict';
/**
 * Workflows opened in n8n's editor by the browser tests (test/e2e/editor.e2e.js) and the README
 * screenshots (dev/cli/screenshots.js). Nodes are spread out on the canvas: the browser opens a
 * node by double-clicking it, and overlapping nodes would take each other's clicks.
 */
const crypto = require('node:crypto');

const { CREDENTIAL_NAME } = require('../examples');

const credentials = { dynamicQrApi: { name: CREDENTIAL_NAME } };
const SPACING = 260;

function node(name, type, parameters, column, extra = {}) {
	return {
		id: crypto.randomUUID(),
		name,
		type,
		typeVersion: extra.typeVersion ?? 1,
		position: [column * SPACING, extra.row ?? 0],
		parameters,
		...(extra.credentials ? { credentials: extra.credentials } : {}),
		...(extra.webhookId ? { webhookId: extra.webhookId } : {}),
	};
}

const start = () => node('Start', 'n8n-nodes-base.manualTrigger', {}, 0);
const dynamicQr = (name, parameters, column, row) =>
	node(name, 'n8n-nodes-dynamic-qr.dynamicQr', parameters, column, { credentials, row });

function fromStart(name, nodes) {
	return {
		name,
		nodes: [start(), ...nodes],
		connections: {
			Start: { main: [nodes.map((entry) => ({ node: entry.name, type: 'main', index: 0 }))] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/** Start → one QR Code › Create node named `nodeName` with these parameters on top of Create's. */
function createCodeWorkflow(nodeName, parameters, { workflowName = `Editor: ${nodeName}` } = {}) {
	return fromStart(workflowName, [
		dynamicQr(
			nodeName,
			{ resource: 'qrCode', operation: 'create', payloadInput: 'fields', ...parameters },
			1,
		),
	]);
}

/**
 * Start → two Create nodes: `nodeName` with these parameters, and "Control: empty Create" with
 * Name and URL left empty. The control node is there to be flagged: once the canvas flags it,
 * n8n has worked out the issues of the workflow's nodes, so "no issues" on the other node is
 * n8n's answer rather than a look taken too early.
 */
const CONTROL_NODE = 'Control: empty Create';
function createCodeWithControlWorkflow(nodeName, parameters) {
	return fromStart(`Editor: ${nodeName}, with a control node`, [
		dynamicQr(nodeName, { resource: 'qrCode', operation: 'create', ...parameters }, 1, 0),
		dynamicQr(
			CONTROL_NODE,
			{ resource: 'qrCode', operation: 'create', type: 'url', payloadInput: 'fields' },
			1,
			200,
		),
	]);
}

/** Start → QR Code › Get whose "QR Code" locator is in From List mode, nothing picked yet. */
function getCodeFromListWorkflow(nodeName) {
	return fromStart(`Editor: ${nodeName}`, [
		dynamicQr(
			nodeName,
			{
				resource: 'qrCode',
				operation: 'get',
				qrCodeId: { __rl: true, mode: 'list', value: '' },
			},
			1,
		),
	]);
}

/** Dynamic QR Trigger (version 2, as the editor adds it; Register Automatically, these events) → No Operation. */
function triggerWorkflow(triggerName, events) {
	return {
		name: `Editor: ${triggerName}`,
		nodes: [
			node(
				triggerName,
				'n8n-nodes-dynamic-qr.dynamicQrTrigger',
				{ endpointMode: 'automatic', events, filters: {} },
				0,
				// createWorkflow() replaces the webhook id with a fresh one.
				{ typeVersion: 2, credentials, webhookId: 'set-by-createWorkflow' },
			),
			node('Received', 'n8n-nodes-base.noOp', {}, 1),
		],
		connections: {
			[triggerName]: { main: [[{ node: 'Received', type: 'main', index: 0 }]] },
		},
		settings: { executionOrder: 'v1' },
	};
}

/**
 * Two triggers side by side: "Dashboard endpoint", a Dynamic QR Trigger at version 2 for an
 * endpoint created in the dashboard, with its signing-secret credential `secretCredentialName`;
 * and "New leads", a Dynamic QR Polling Trigger on New Lead on a Card with no card chosen yet.
 */
function triggersWorkflow(secretCredentialName) {
	return {
		name: 'Editor: Dynamic QR Trigger v2 (dashboard) and Polling Trigger',
		nodes: [
			node(
				'Dashboard endpoint',
				'n8n-nodes-dynamic-qr.dynamicQrTrigger',
				{ endpointMode: 'dashboard', events: ['scan.created'], filters: {} },
				0,
				{
					typeVersion: 2,
					credentials: { dynamicQrSigningSecretApi: { name: secretCredentialName } },
					webhookId: 'set-by-createWorkflow',
				},
			),
			node(
				'New leads',
				'n8n-nodes-dynamic-qr.dynamicQrPollingTrigger',
				{ event: 'newLead', cardId: '' },
				0,
				{ credentials, row: 300 },
			),
		],
		connections: {},
		settings: { executionOrder: 'v1' },
	};
}

/** Only a manual trigger: a canvas to add nodes to from the nodes panel. */
const startOnlyWorkflow = (name) => ({ ...fromStart(name, []), connections: {} });

module.exports = {
	startOnlyWorkflow,
	CONTROL_NODE,
	createCodeWorkflow,
	createCodeWithControlWorkflow,
	getCodeFromListWorkflow,
	triggerWorkflow,
	triggersWorkflow,
};
