'use strict';
/**
 * Workflows opened in n8n's editor by the browser tests (test/e2e/editor.e2e.js) and the README
 * screenshots (dev/cli/screenshots.js). Nodes are spread out on the canvas: the browser opens a
 * node by double-clicking it, and overlapping nodes would take each other's clicks.
 */
const {
	TYPES,
	node,
	dynamicQr,
	credentialRef,
	resourceId,
	chain,
	workflow,
} = require('../n8n/workflow-builder');
const { CREDENTIAL_NAME } = require('../examples');

const SPACING = 260;

/** A canvas position: `column` of SPACING-wide columns, `y` pixels down. */
const at = (column, y = 0) => [column * SPACING, y];

/** Start → these nodes, in parallel. */
function fromStart(name, nodes) {
	const start = node(TYPES.manualTrigger, {}, { name: 'Start', position: at(0) });
	return workflow(
		name,
		[start, ...nodes],
		nodes.length
			? chain(
					'Start',
					nodes.map((entry) => entry.name),
				)
			: {},
	);
}

/** Start → one QR Code › Create node named `nodeName` with these parameters on top of Create's. */
function createCodeWorkflow(nodeName, parameters, { workflowName = `Editor: ${nodeName}` } = {}) {
	return fromStart(workflowName, [
		dynamicQr(
			{ resource: 'qrCode', operation: 'create', payloadInput: 'fields', ...parameters },
			{ name: nodeName, position: at(1) },
		),
	]);
}

/**
 * Start → two Create nodes: `nodeName` with these parameters (at `typeVersion`, default 1), and
 * "Control: empty Create" with Name and URL left empty. The control node is there to be flagged:
 * once the canvas flags it, n8n has worked out the issues of the workflow's nodes, so "no issues"
 * on the other node is n8n's answer rather than a look taken too early.
 */
const CONTROL_NODE = 'Control: empty Create';
function createCodeWithControlWorkflow(nodeName, parameters, { typeVersion = 1 } = {}) {
	return fromStart(`Editor: ${nodeName}, with a control node`, [
		dynamicQr(
			{ resource: 'qrCode', operation: 'create', ...parameters },
			{ name: nodeName, position: at(1), typeVersion },
		),
		dynamicQr(
			{ resource: 'qrCode', operation: 'create', type: 'url', payloadInput: 'fields' },
			{ name: CONTROL_NODE, position: at(1, 200) },
		),
	]);
}

/** Start → QR Code › Get whose "QR Code" locator is in From List mode, nothing picked yet. */
function getCodeFromListWorkflow(nodeName) {
	return fromStart(`Editor: ${nodeName}`, [
		dynamicQr(
			{ resource: 'qrCode', operation: 'get', qrCodeId: resourceId('', 'list') },
			{ name: nodeName, position: at(1) },
		),
	]);
}

/**
 * Dynamic QR Trigger (version 2, as the editor adds it; these events) → No Operation "Received".
 * Register Automatically, or with `secretCredentialName` for an endpoint created in the dashboard
 * whose secret is that signing-secret credential's.
 */
function triggerWorkflow(triggerName, events, { secretCredentialName } = {}) {
	const nodes = [
		node(
			TYPES.dynamicQrTrigger,
			{ endpointMode: secretCredentialName ? 'dashboard' : 'automatic', events, filters: {} },
			{
				name: triggerName,
				typeVersion: 2,
				position: at(0),
				credentials: secretCredentialName
					? credentialRef('dynamicQrSigningSecretApi', secretCredentialName)
					: credentialRef('dynamicQrApi', CREDENTIAL_NAME),
				// createWorkflow() replaces the webhook id with a fresh one.
				webhookId: 'set-by-createWorkflow',
			},
		),
		node(TYPES.noOp, {}, { name: 'Received', position: at(1) }),
	];
	return workflow(`Editor: ${triggerName}`, nodes, chain(triggerName, 'Received'));
}

/**
 * Three triggers side by side: "Dashboard endpoint", a Dynamic QR Trigger at version 2 for an
 * endpoint created in the dashboard, with the signing-secret credential `secretCredentialName`;
 * "Version 1 dashboard", the same at version 1, whose Signing Secret field holds `signingSecret`;
 * and "New leads", a Dynamic QR Polling Trigger on New Lead on a Card with no card chosen yet.
 */
function triggersWorkflow(secretCredentialName, signingSecret) {
	return workflow('Editor: Dynamic QR Trigger v2 and v1 (dashboard) and Polling Trigger', [
		node(
			TYPES.dynamicQrTrigger,
			{ endpointMode: 'dashboard', events: ['scan.created'], filters: {} },
			{
				name: 'Dashboard endpoint',
				typeVersion: 2,
				position: at(0),
				credentials: credentialRef('dynamicQrSigningSecretApi', secretCredentialName),
				webhookId: 'set-by-createWorkflow',
			},
		),
		node(
			TYPES.dynamicQrTrigger,
			{ endpointMode: 'dashboard', signingSecret, events: ['scan.created'], filters: {} },
			{
				name: 'Version 1 dashboard',
				typeVersion: 1,
				position: at(1),
				webhookId: 'set-by-createWorkflow',
			},
		),
		node(
			TYPES.dynamicQrPollingTrigger,
			{ event: 'newLead', cardId: '' },
			{
				name: 'New leads',
				position: at(0, 300),
				credentials: credentialRef('dynamicQrApi', CREDENTIAL_NAME),
			},
		),
	]);
}

/** Only a manual trigger: a canvas to add nodes to from the nodes panel. */
const startOnlyWorkflow = (name) => fromStart(name, []);

module.exports = {
	startOnlyWorkflow,
	CONTROL_NODE,
	createCodeWorkflow,
	createCodeWithControlWorkflow,
	getCodeFromListWorkflow,
	triggerWorkflow,
	triggersWorkflow,
};
