'use strict';

/**
 * Runs real workflows through n8n-core's WorkflowExecute, in the manner of n8n's own node test
 * harness (packages/core/nodes-testing, unpublished): our BUILT node and credential classes
 * from dist/, a credentials helper that hands out the sandbox credentials and applies the
 * credential's own `authenticate` block, binary data kept in memory (n8n's "default" mode),
 * and a small "Test Input" start node that emits the items a test gives it.
 */

const path = require('node:path');

const { Container, createCredentialsHelper, DIST } = require('./n8n-core');
const {
	BinaryDataService,
	ExecutionLifecycleHooks,
	LoadOptionsContext,
	WorkflowExecute,
} = require('n8n-core');
const { NodeConnectionTypes, NodeHelpers, Workflow } = require('n8n-workflow');

const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));

const NODE_TYPE = 'n8n-nodes-dynamic-qr.dynamicQr';
const INPUT_TYPE = 'test.input';

/** Start node: emits `items` (JSON plus optional `binary: { field: { base64, mimeType, fileName } }`). */
class TestInput {
	description = {
		displayName: 'Test Input',
		name: 'testInput',
		group: ['input'],
		version: 1,
		description: 'Emits the items of the test',
		defaults: { name: 'Test Input' },
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		properties: [{ displayName: 'Items', name: 'items', type: 'json', default: '[]' }],
	};

	async execute() {
		const items = JSON.parse(this.getNodeParameter('items', 0));
		const output = [];
		for (const item of items) {
			const entry = { json: item.json ?? {} };
			if (item.binary) {
				entry.binary = {};
				for (const [field, file] of Object.entries(item.binary)) {
					entry.binary[field] = await this.helpers.prepareBinaryData(
						Buffer.from(file.base64, 'base64'),
						file.fileName,
						file.mimeType,
					);
				}
			}
			output.push(entry);
		}
		return [output];
	}
}

const nodeTypes = {
	types: { [NODE_TYPE]: new DynamicQr(), [INPUT_TYPE]: new TestInput() },
	getByName(type) {
		return this.types[type];
	},
	getByNameAndVersion(type, version) {
		return NodeHelpers.getVersionedNodeType(this.types[type], version);
	},
	getKnownTypes() {
		return {};
	},
};

let binaryDataReady = false;
/** n8n's "default" binary mode: files stay in the item, base64-encoded. */
function setUpBinaryData() {
	if (binaryDataReady) return;
	const logger = { error() {}, warn() {}, info() {}, debug() {} };
	const service = new BinaryDataService({ mode: 'default' }, { error() {} }, logger);
	service.mode = 'default';
	Container.set(BinaryDataService, service);
	binaryDataReady = true;
}

/** The credentials helper, telling `onRequest` of every request it authenticates. */
function recordingRequests(helper, onRequest) {
	if (!onRequest) return helper;
	return {
		...helper,
		async authenticate(credentials, typeName, requestOptions, ...rest) {
			onRequest(requestOptions);
			return await helper.authenticate(credentials, typeName, requestOptions, ...rest);
		},
	};
}

let executionCounter = 0;

/**
 * Runs `Test Input -> Dynamic QR` once.
 * @param {object} options
 * @param {object} options.parameters the Dynamic QR node's parameters
 * @param {object} options.credentials `{ apiKey, baseUrl }`
 * @param {Array} [options.items] input items, default one empty item
 * @param {object} [options.settings] node settings: continueOnFail, retryOnFail, maxTries, waitBetweenTries
 * @param {number} [options.typeVersion] the node's version, default 1 (what saved workflows hold)
 * @param {string} [options.executionId]
 * @param {string} [options.mode] how the execution was started, default 'manual'; n8n's Retry of a
 *   failed execution is 'retry', with a new id and the failed one's node contexts (`contextData`)
 * @param {object} [options.contextData] the execution's node contexts at the start (what n8n carries
 *   into the retry of a failed execution); the run's are in `run.data.executionData.contextData`
 * @param {string} [options.timezone] the workflow's time zone (its settings), e.g. "Asia/Tokyo"
 * @param {Function} [options.onRequest] called with each authenticated request as the node built
 *   it (method, url, qs, headers, body), before n8n sends it
 * @returns {Promise<{ items, error, runs, run, issues }>} `items`: the node's output of its last
 *   run; `error`: the node's error, if it failed; `runs`: its task data; `run`: the whole IRun;
 *   `issues`: n8n's parameter issues when its pre-run check refused to start (nothing ran)
 */
async function runNode({
	parameters,
	credentials,
	items = [{ json: {} }],
	settings = {},
	typeVersion = 1,
	executionId,
	mode = 'manual',
	contextData,
	timezone,
	onRequest,
}) {
	setUpBinaryData();
	const id = executionId ?? `test-execution-${++executionCounter}`;
	const nodes = [
		{
			id: 'input-node',
			name: 'Test Input',
			type: INPUT_TYPE,
			typeVersion: 1,
			position: [0, 0],
			parameters: { items: JSON.stringify(items) },
		},
		{
			id: 'dynamic-qr-node',
			name: 'Dynamic QR',
			type: NODE_TYPE,
			typeVersion,
			position: [200, 0],
			parameters,
			credentials: { dynamicQrApi: { id: 'sandbox', name: 'Sandbox' } },
			...settings,
		},
	];
	const connections = {
		'Test Input': { main: [[{ node: 'Dynamic QR', type: 'main', index: 0 }]] },
	};
	const workflowData = {
		id: 'test-workflow',
		name: 'Test',
		nodes,
		connections,
		active: false,
		settings: timezone ? { timezone } : {},
	};
	const workflow = new Workflow({ ...workflowData, nodeTypes });

	const hooks = new ExecutionLifecycleHooks(mode, id, workflowData);
	let resolveFinished;
	const finished = new Promise((resolve) => (resolveFinished = resolve));
	hooks.addHandler('workflowExecuteAfter', (fullRunData) => resolveFinished(fullRunData));

	const additionalData = {
		hooks,
		executionId: id,
		credentialsHelper: recordingRequests(createCredentialsHelper(credentials), onRequest),
		restApiUrl: 'http://localhost:5678/rest',
		instanceBaseUrl: 'http://localhost:5678/',
		webhookBaseUrl: 'http://localhost:5678/webhook',
		webhookWaitingBaseUrl: 'http://localhost:5678/webhook-waiting',
		webhookTestBaseUrl: 'http://localhost:5678/webhook-test',
		formWaitingBaseUrl: 'http://localhost:5678/form-waiting',
		variables: {},
		currentNodeParameters: undefined,
		executeWorkflow: async () => {
			throw new Error('not used by these tests');
		},
		logAiEvent: () => {},
		getRunExecutionData: async () => undefined,
	};

	const runExecutionData = {
		startData: {},
		resultData: { runData: {} },
		executionData: {
			contextData: structuredClone(contextData ?? {}),
			metadata: {},
			nodeExecutionStack: [{ node: nodes[0], data: { main: [[{ json: {} }]] }, source: null }],
			waitingExecution: {},
			waitingExecutionSource: {},
		},
	};
	const workflowExecute = new WorkflowExecute(additionalData, mode, runExecutionData);
	// n8n's own check before any node runs (WorkflowExecute.run does it): parameters it counts
	// as shown, required and empty stop the whole run. A test must pass it as a user's run would.
	const issues = workflowExecute.checkReadyForExecution(workflow, { startNode: 'Test Input' });
	if (issues) {
		return {
			items: [],
			error: Object.assign(new Error('The workflow has issues and cannot be executed'), { issues }),
			issues,
			runs: [],
			run: undefined,
		};
	}
	await workflowExecute.processRunExecutionData(workflow);
	const run = await finished;

	const runs = run.data.resultData.runData['Dynamic QR'] ?? [];
	const last = runs[runs.length - 1];
	return {
		items: last?.data?.main?.[0] ?? [],
		error: last?.error ?? run.data.resultData.error,
		runs,
		run,
	};
}

/**
 * The editor's way of calling the action node's searchable lists and option lists: n8n-core's
 * LoadOptionsContext, with the sandbox's read-only key applied as n8n applies the credential.
 */
function listSearchContext(sandbox, parameterPath = 'qrCodeId') {
	const nodeType = new DynamicQr().getNodeType(1);
	const node = {
		id: 'dq',
		name: 'Dynamic QR',
		type: NODE_TYPE,
		typeVersion: 1,
		position: [0, 0],
		parameters: {},
		credentials: { dynamicQrApi: { id: 'sandbox', name: 'Sandbox' } },
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => nodeType,
			getByNameAndVersion: () => nodeType,
			getKnownTypes: () => ({}),
		},
	});
	const additionalData = {
		credentialsHelper: createCredentialsHelper({
			apiKey: sandbox.keys.readOnly,
			baseUrl: `${sandbox.baseUrl}/`,
		}),
		restApiUrl: 'http://127.0.0.1:1/rest',
		webhookBaseUrl: 'http://127.0.0.1:1/webhook',
		variables: {},
	};
	return new LoadOptionsContext(
		workflow,
		workflow.getNode('Dynamic QR'),
		additionalData,
		parameterPath,
	);
}

module.exports = { runNode, listSearchContext, NODE_TYPE };
