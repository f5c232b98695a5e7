'use strict';
/**
 * n8n's REST API as its editor uses it, signed in as the owner (the `n8n-auth` cookie): the
 * credentials, workflows, runs, executions, activation and binary data the tests and tools
 * drive. One client per n8n main process; a queue cluster uses its main's client.
 *
 * The client is a set of small objects, one per area of the API (as n8n's own Playwright suite
 * splits its API helpers), in rest/:
 *
 *   client.api.session      RestSession     request(), signInAsOwner(), nodeTypeNames()
 *   client.api.credentials  CredentialsApi  create(), test()
 *   client.api.workflows    WorkflowsApi    create(), get(), run(), activate(), deactivate(),
 *                                           publicationStatus(), webhookUrl()
 *   client.api.executions   ExecutionsApi   list(), get(), waitUntilFinished(), retry(), binary()
 *
 * and, for the callers (startN8n() spreads them onto its n8n), the same methods under the
 * names below (FLAT):
 *
 *   const client = createRestClient({ url, major: 2 });
 *   await client.signInAsOwner(owner);
 *   const workflow = await client.createWorkflow(require('../../examples/….json'));
 *   const run = await client.runWorkflow(workflow.id); // { id, status, runData, error, items(node) }
 */
const { RestSession } = require('./rest/session');
const { CredentialsApi } = require('./rest/credentials');
const { WorkflowsApi } = require('./rest/workflows');
const { ExecutionsApi } = require('./rest/executions');

/** The client's own method names: `[area, method of that area]` each. */
const FLAT = {
	signInAsOwner: ['session', 'signInAsOwner'],
	nodeTypeNames: ['session', 'nodeTypeNames'],
	createCredential: ['credentials', 'create'],
	testCredential: ['credentials', 'test'],
	createWorkflow: ['workflows', 'create'],
	workflow: ['workflows', 'get'],
	runWorkflow: ['workflows', 'run'],
	activate: ['workflows', 'activate'],
	deactivate: ['workflows', 'deactivate'],
	publicationStatus: ['workflows', 'publicationStatus'],
	webhookUrl: ['workflows', 'webhookUrl'],
	executions: ['executions', 'list'],
	execution: ['executions', 'get'],
	waitForExecution: ['executions', 'waitUntilFinished'],
	retryExecution: ['executions', 'retry'],
	binary: ['executions', 'binary'],
};

/**
 * @param {object} options
 * @param {string} options.url n8n's base URL (`http://127.0.0.1:<port>`)
 * @param {number} options.major n8n's major version: 1.x and 2.x differ in some request bodies
 * @param {string} [options.webhookBaseUrl] where production webhooks are called (default `url`;
 *   a queue cluster's balancer)
 */
function createRestClient({ url, major, webhookBaseUrl = url }) {
	const session = new RestSession({ url, major });
	const credentials = new CredentialsApi(session);
	const executions = new ExecutionsApi(session);
	const workflows = new WorkflowsApi(session, { credentials, executions }, webhookBaseUrl);
	const api = { session, credentials, workflows, executions };

	const client = {
		url,
		major,
		api,
		/**
		 * A request to n8n's HTTP API as the signed-in owner. `path` is from n8n's root (e.g.
		 * '/rest/workflows'). Resolves with the parsed JSON answer as n8n sends it (most REST
		 * answers wrap their payload in `data`); throws on a non-2xx answer with `status` and
		 * `body` set on the error.
		 */
		rest: (method, pathname, body) => session.request(method, pathname, body),
		/** A raw fetch Response (for binary downloads and webhooks). */
		fetch: (method, pathname, body) => session.request(method, pathname, body, { raw: true }),
	};
	for (const [name, [area, method]] of Object.entries(FLAT)) {
		client[name] = (...args) => api[area][method](...args);
	}
	return client;
}

module.exports = { createRestClient };
