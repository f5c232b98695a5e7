'use strict';
// Runs the built trigger nodes through n8n-core's own machinery, in process:
// - webhook lifecycle: n8n's HookContext, called the way n8n's WebhookService does
//   (checkExists, then create when it answered false; delete on deactivation);
// - deliveries: a real HTTP server receives the sandbox's POSTs, reads the raw body like n8n's
//   raw-body middleware, runs the node's webhook() in n8n's WebhookContext, answers like
//   n8n's webhook helpers (noWebhookResponse / webhookResponse / "Workflow was started") and,
//   when the node returns workflowData, runs the workflow with n8n-core's WorkflowExecute
//   starting at the trigger, as n8n does for a production webhook;
// - polling: n8n's PollContext run through n8n-core's TriggersAndPollers.runPollFunction.
// A real n8n process is exercised elsewhere (a later issue); nothing here replaces the node's code.
const path = require('path');

const { Container, createCredentialsHelper, logLines, DIST } = require('./n8n-core');
const { NodeHelpers, Workflow, createRunExecutionData } = require('n8n-workflow');
const { startSandbox } = require('../../dev/sandbox');
const { startRecorder } = require('../../dev/http-recorder');
const {
	HookContext,
	WebhookContext,
	PollContext,
	WorkflowExecute,
	ExecutionLifecycleHooks,
	TriggersAndPollers,
} = require('n8n-core');

const { DynamicQrTrigger } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQrTrigger.node.js'));
const { DynamicQrPollingTrigger } = require(
	path.join(DIST, 'nodes/DynamicQr/DynamicQrPollingTrigger.node.js'),
);

const PACKAGE = 'n8n-nodes-dynamic-qr';
const TRIGGER_TYPE = `${PACKAGE}.dynamicQrTrigger`;
const POLLING_TYPE = `${PACKAGE}.dynamicQrPollingTrigger`;
const COLLECT_TYPE = 'test.collect';

/** A plain node that records what reached it: proof that the workflow really ran past the trigger. */
const collected = [];
class Collect {
	constructor() {
		this.description = {
			displayName: 'Collect',
			name: 'collect',
			group: ['transform'],
			version: 1,
			description: 'Test sink',
			defaults: { name: 'Collect' },
			inputs: ['main'],
			outputs: ['main'],
			properties: [],
		};
	}
	async execute() {
		const items = this.getInputData();
		collected.push(...items.map((item) => item.json));
		return [items];
	}
}

const types = {
	[TRIGGER_TYPE]: new DynamicQrTrigger(),
	[POLLING_TYPE]: new DynamicQrPollingTrigger(),
	[COLLECT_TYPE]: new Collect(),
};
const nodeTypes = {
	getByName: (type) => types[type],
	getByNameAndVersion: (type, version) => NodeHelpers.getVersionedNodeType(types[type], version),
	getKnownTypes: () => ({}),
};

let workflowCounter = 0;

/**
 * A workflow: the trigger node (webhook or polling) connected to a Collect node.
 * `credentials` is `{ apiKey, baseUrl }` or null (dashboard mode without a credential).
 */
function createWorkflow({
	type = TRIGGER_TYPE,
	parameters,
	credentials,
	webhookBaseUrl,
	staticData,
	typeVersion = 1,
	credentialType = 'dynamicQrApi',
} = {}) {
	workflowCounter++;
	const id = `wf${String(workflowCounter).padStart(6, '0')}`;
	const trigger = {
		id: `node-${id}`,
		name: type === TRIGGER_TYPE ? 'Dynamic QR Trigger' : 'Dynamic QR Polling Trigger',
		type,
		typeVersion,
		position: [0, 0],
		parameters,
		webhookId: type === TRIGGER_TYPE ? `hook${id}` : undefined,
		credentials: credentials
			? { [credentialType]: { id: 'cred1', name: 'Credential' } }
			: undefined,
	};
	const sink = {
		id: `sink-${id}`,
		name: 'Collect',
		type: COLLECT_TYPE,
		typeVersion: 1,
		position: [200, 0],
		parameters: {},
	};
	const workflow = new Workflow({
		id,
		name: `Test ${id}`,
		nodes: [trigger, sink],
		connections: { [trigger.name]: { main: [[{ node: 'Collect', type: 'main', index: 0 }]] } },
		active: true,
		nodeTypes,
		staticData: staticData || {},
	});
	const additionalData = {
		credentialsHelper: createCredentialsHelper(credentials || {}),
		webhookBaseUrl: webhookBaseUrl || 'http://127.0.0.1:1/webhook',
		webhookTestBaseUrl: (webhookBaseUrl || 'http://127.0.0.1:1/webhook').replace(
			/\/webhook$/,
			'/webhook-test',
		),
		webhookWaitingBaseUrl: 'http://127.0.0.1:1/webhook-waiting',
		formWaitingBaseUrl: 'http://127.0.0.1:1/form-waiting',
		instanceBaseUrl: 'http://127.0.0.1:1/',
		restApiUrl: 'http://127.0.0.1:1/rest',
		variables: {},
		executeWorkflow: async () => {
			throw new Error('not used');
		},
		getRunExecutionData: async () => undefined,
		userId: 'user1',
		currentNodeParameters: undefined,
		executionTimeoutTimestamp: undefined,
		restartExecutionId: undefined,
	};
	return { workflow, node: workflow.getNode(trigger.name), additionalData };
}

/** The webhook data n8n hands a trigger's webhook methods and requests. */
const webhookDataOf = (workflow, node, additionalData, webhookDescription) => ({
	httpMethod: webhookDescription.httpMethod,
	node: node.name,
	path: `${node.webhookId}/${webhookDescription.path}`,
	webhookDescription,
	workflowId: workflow.id,
	workflowExecuteAdditionalData: additionalData,
	webhookId: node.webhookId,
});
/** Calls one webhook method the way n8n's WebhookService.runWebhookMethod does. */
async function runWebhookMethod(
	setup,
	method,
	{ mode = 'trigger', activation = 'activate', isTest = false } = {},
) {
	const { workflow, node, additionalData } = setup;
	const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
	const webhookDescription = nodeType.description.webhooks[0];
	const webhookData = {
		...webhookDataOf(workflow, node, additionalData, webhookDescription),
		isTest,
	};
	const context = new HookContext(workflow, node, additionalData, mode, activation, webhookData);
	return await nodeType.webhookMethods[webhookDescription.name][method].call(context);
}

/** Activation as n8n does it: create only when checkExists answered false. */
async function activate(setup, options) {
	const exists = await runWebhookMethod(setup, 'checkExists', options);
	if (!exists) await runWebhookMethod(setup, 'create', options);
	return { existed: exists };
}

async function deactivate(setup, options) {
	return await runWebhookMethod(setup, 'delete', { activation: 'manual', ...options });
}

/** An Express-like response over a Node response: what n8n hands nodes as getResponseObject(). */
function expressLikeResponse(res) {
	const response = {
		headersSent: false,
		status(code) {
			res.statusCode = code;
			return response;
		},
		json(body) {
			res.setHeader('content-type', 'application/json');
			res.end(JSON.stringify(body));
			response.headersSent = true;
			return response;
		},
		send(body) {
			res.end(typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body));
			response.headersSent = true;
			return response;
		},
		end(body) {
			res.end(body);
			response.headersSent = true;
			return response;
		},
		setHeader: (name, value) => res.setHeader(name, value),
		once(event, listener) {
			res.once(event, listener);
			return response;
		},
		get statusCode() {
			return res.statusCode;
		},
		get writableFinished() {
			return res.writableFinished;
		},
	};
	return response;
}

/** Runs the workflow from the trigger with its output, as n8n starts a production webhook execution. */
async function runWorkflowFrom(setup, workflowData, mode = 'webhook') {
	const { workflow, node, additionalData } = setup;
	const executionId = `exec-${Math.random().toString(36).slice(2)}`;
	const hooks = new ExecutionLifecycleHooks(mode, executionId, {
		id: workflow.id,
		name: workflow.name,
		nodes: [],
		connections: {},
		active: true,
		settings: {},
	});
	const runExecutionData = createRunExecutionData({
		executionData: {
			nodeExecutionStack: [{ node, data: { main: workflowData }, source: null }],
		},
	});
	const executor = new WorkflowExecute(
		{ ...additionalData, hooks, executionId },
		mode,
		runExecutionData,
	);
	return await executor.processRunExecutionData(workflow);
}

/**
 * A receiver for the sandbox's deliveries: POST {base}/webhook/{webhookId}/webhook runs the
 * registered workflow's trigger. Records every answer and every execution.
 */
/** Longer than the trigger's quiet time before a resync (selfRequest.ts), with room for a slow machine. */
const RESYNC_WAIT_MS = 1500;

async function startReceiver() {
	const routes = new Map(); // webhook path -> setup
	const answers = [];
	// The trigger's resyncs of its delivery record (requests it sends to its own n8n process),
	// kept apart from the deliveries' answers.
	const resyncs = [];
	const executions = [];
	let failWith = null; // when set, answer this status without running anything
	// When set, the trigger runs but the execution cannot be started (as when n8n's queue is
	// unreachable): n8n answers this status and saves none of the request's static data.
	let failStartWith = null;
	const pending = new Set();
	// On the monotonic clock: tests move `Date` (test/support/time.js), the trigger's timers do not.
	let lastRequestAt = 0;

	const recorder = await startRecorder({
		respond: (received, req, res) => {
			lastRequestAt = performance.now();
			const work = (async () => {
				const url = new URL(req.url, 'http://127.0.0.1');
				const setup = routes.get(url.pathname);
				const isResync = String(req.headers['webhook-id'] ?? '').startsWith('resync_');
				const record = isResync ? resyncs : answers;
				if (failWith !== null) {
					res.statusCode = failWith;
					res.end();
					record.push({ path: url.pathname, status: failWith });
					return;
				}
				if (!setup || req.method !== 'POST') {
					res.statusCode = 404;
					res.end('{"message":"webhook not registered"}');
					record.push({ path: url.pathname, status: 404 });
					return;
				}
				// As n8n hands a webhook its request: the raw body already read.
				req.rawBody = received.rawBytes;
				req.readRawBody = async () => {};
				const { workflow, node, additionalData } = setup;
				const staticDataBefore = JSON.stringify(workflow.staticData);
				const nodeType = nodeTypes.getByNameAndVersion(node.type, node.typeVersion);
				const webhookDescription = nodeType.description.webhooks[0];
				const response = expressLikeResponse(res);
				const webhookData = webhookDataOf(workflow, node, additionalData, webhookDescription);
				const requestData = { ...additionalData, httpRequest: req, httpResponse: response };
				// 'manual' for a test webhook (the editor's Listen for Test Event).
				const context = new WebhookContext(
					workflow,
					node,
					requestData,
					setup.webhookMode ?? 'webhook',
					webhookData,
					[],
					null,
				);
				let result;
				try {
					result = await nodeType.webhook.call(context);
				} catch (error) {
					res.statusCode = 500;
					res.end(JSON.stringify({ message: error.message }));
					const { message, description } = error;
					record.push({ path: url.pathname, status: 500, error: message, description });
					return;
				}
				// The node answered itself.
				if (result.noWebhookResponse === true) {
					record.push({ path: url.pathname, status: res.statusCode, started: false });
					return;
				}
				if (result.workflowData === undefined) {
					res.statusCode = 200;
					res.setHeader('content-type', 'application/json');
					res.end(JSON.stringify(result.webhookResponse ?? { message: 'Webhook call received' }));
					record.push({
						path: url.pathname,
						status: 200,
						started: false,
						response: result.webhookResponse,
					});
					return;
				}
				if (failStartWith !== null) {
					// The next request loads the static data as saved before this one.
					for (const key of Object.keys(workflow.staticData)) delete workflow.staticData[key];
					Object.assign(workflow.staticData, JSON.parse(staticDataBefore));
					res.statusCode = failStartWith;
					res.end(JSON.stringify({ message: 'There was a problem executing the workflow' }));
					record.push({ path: url.pathname, status: failStartWith, started: false });
					return;
				}
				// responseMode "onReceived": answer "Workflow was started", run the workflow after.
				res.statusCode = 200;
				res.setHeader('content-type', 'application/json');
				res.end(JSON.stringify({ message: 'Workflow was started' }));
				record.push({ path: url.pathname, status: 200, started: true });
				const run = await runWorkflowFrom(
					{ ...setup, additionalData: requestData },
					result.workflowData,
				);
				executions.push({ path: url.pathname, run, triggerOutput: result.workflowData });
			})();
			pending.add(work);
			work.finally(() => {
				pending.delete(work);
				lastRequestAt = performance.now();
			});
		},
	});
	const base = recorder.urlFor('/webhook');
	return {
		webhookBaseUrl: base,
		answers,
		resyncs,
		executions,
		register(setup) {
			routes.set(new URL(webhookUrlOf(setup)).pathname, setup);
		},
		failAll(status) {
			failWith = status;
		},
		failStarts(status) {
			failStartWith = status;
		},
		/** Forgets what was received and answers every request normally again. */
		reset() {
			failWith = null;
			failStartWith = null;
			answers.length = 0;
			resyncs.length = 0;
			executions.length = 0;
		},
		async settle() {
			while (pending.size) await Promise.all([...pending]);
		},
		/**
		 * Waits out the resyncs the trigger plans after its last delivery (500 ms of quiet, then a
		 * request to this server): one sent after the test file ended would run in a torn-down
		 * Jest environment.
		 */
		async close() {
			for (;;) {
				while (pending.size) await Promise.all([...pending]);
				const quietFor = performance.now() - lastRequestAt;
				if (quietFor >= RESYNC_WAIT_MS) break;
				await new Promise((resolve) => setTimeout(resolve, RESYNC_WAIT_MS - quietFor));
			}
			await recorder.close();
		},
	};
}

/**
 * A test file's sandbox and receiver: started before its tests, closed after them, and reset
 * before each (the sandbox's state, what the receiver got, the collected items and n8n's log).
 * The returned object holds both once started.
 */
function useDeliveries() {
	const started = {};
	beforeAll(async () => {
		started.sandbox = await startSandbox();
		started.receiver = await startReceiver();
	});
	afterAll(async () => {
		await started.receiver?.close();
		await started.sandbox?.close();
	});
	beforeEach(async () => {
		await started.sandbox.control('POST', '/reset');
		started.receiver.reset();
		collected.length = 0;
		logLines.length = 0;
	});
	return started;
}

function webhookUrlOf(setup) {
	return `${setup.additionalData.webhookBaseUrl}/${setup.node.webhookId}/webhook`;
}

/**
 * One poll through n8n-core's TriggersAndPollers with n8n's PollContext. `budgetMs`: what the
 * context's getPollBudgetMs() answers (n8n-core's default otherwise: 5 minutes); null: the context
 * has no getPollBudgetMs, as in n8n 1.x.
 */
async function poll(setup, { mode = 'trigger', budgetMs } = {}) {
	const { workflow, node, additionalData } = setup;
	const budget = budgetMs === undefined || budgetMs === null ? undefined : () => budgetMs;
	const context = new PollContext(
		...[workflow, node, additionalData, mode, 'activate'],
		...[undefined, undefined, undefined, undefined, undefined, budget],
	);
	if (budgetMs === null) delete context.getPollBudgetMs;
	return await Container.get(TriggersAndPollers).runPollFunction(workflow, node, context);
}

module.exports = {
	TRIGGER_TYPE,
	POLLING_TYPE,
	createWorkflow,
	runWebhookMethod,
	activate,
	deactivate,
	startReceiver,
	useDeliveries,
	runWorkflowFrom,
	webhookUrlOf,
	poll,
	logLines,
	collected,
};
