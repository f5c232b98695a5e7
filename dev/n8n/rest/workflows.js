'use strict';
/**
 * The workflows area of n8n's REST API: import a workflow (credentials bound by name), read it,
 * run it as the editor's "Execute workflow" button does, publish and unpublish it, and the URLs
 * of its production webhooks.
 */
const crypto = require('node:crypto');

const { waitFor } = require('../../wait-for');
const { unwrap, failFast } = require('./session');

class WorkflowsApi {
	/**
	 * @param {import('./session').RestSession} session
	 * @param {object} areas the client's other areas this one uses
	 * @param {import('./credentials').CredentialsApi} areas.credentials
	 * @param {import('./executions').ExecutionsApi} areas.executions
	 * @param {string} webhookBaseUrl where production webhooks are called (a queue cluster's
	 *   balancer, else n8n's own URL)
	 */
	constructor(session, { credentials, executions }, webhookBaseUrl = session.url) {
		this.session = session;
		this.credentials = credentials;
		this.executions = executions;
		this.webhookBaseUrl = webhookBaseUrl;
	}

	/**
	 * Imports a workflow (the JSON of examples/*.json or of n8n's "Download") as a new, inactive
	 * workflow -> `{ id, versionId, name, webhookIds }`.
	 *
	 * Credentials are referenced by name: every `node.credentials[type] = { name }` (an `id` in
	 * the file is ignored) is bound to the credential of that type and name created through
	 * this client's CredentialsApi; `options.credentials` (`{ [name]: id }`) adds or overrides
	 * bindings. An unknown name is an error, not a silently broken workflow.
	 *
	 * Every node that has a `webhookId` gets a fresh one (as n8n's editor does on paste), so
	 * the same example can be imported twice without webhook path conflicts; `webhookIds`
	 * maps node names to them. `options.keepWebhookIds` keeps those of the file.
	 * `options.name` renames the workflow; `options.patch(nodesByName)` may edit nodes first.
	 */
	async create(workflowJson, opts = {}) {
		const workflow = JSON.parse(JSON.stringify(workflowJson));
		const nodes = workflow.nodes ?? [];
		const webhookIds = {};
		for (const node of nodes) {
			for (const [type, reference] of Object.entries(node.credentials ?? {})) {
				const name = reference?.name;
				const id = opts.credentials?.[name] ?? this.credentials.idOf(type, name);
				if (!id) {
					throw new Error(
						`Workflow "${workflow.name}": node "${node.name}" uses the ${type} credential "${name}", which was not created on this n8n (createCredential first, or pass options.credentials)`,
					);
				}
				node.credentials[type] = { id, name };
			}
			if (node.webhookId !== undefined && !opts.keepWebhookIds)
				node.webhookId = crypto.randomUUID();
			if (node.webhookId) webhookIds[node.name] = node.webhookId;
		}
		if (opts.patch) opts.patch(Object.fromEntries(nodes.map((node) => [node.name, node])));
		const record = unwrap(
			await this.session.request('POST', '/rest/workflows', {
				name: opts.name ?? workflow.name ?? 'Imported workflow',
				nodes,
				connections: workflow.connections ?? {},
				settings: workflow.settings ?? { executionOrder: 'v1' },
				pinData: workflow.pinData ?? {},
				active: false,
			}),
		);
		return { id: String(record.id), versionId: record.versionId, name: record.name, webhookIds };
	}

	/** The stored workflow (`data` of GET /rest/workflows/:id). */
	async get(id) {
		return unwrap(await this.session.request('GET', `/rest/workflows/${id}`));
	}

	/**
	 * Runs a workflow as the editor's "Execute workflow" button does, from its manual trigger
	 * (or `triggerName`), and waits until the execution has finished. Resolves with the
	 * execution read back from n8n: `{ id, status, runData, error, items(nodeName) }`.
	 * A finished execution with status 'error' resolves too: check `status` / `error`.
	 */
	async run(id, { triggerName, timeoutMs = 180000 } = {}) {
		const workflowData = await this.get(id);
		const trigger =
			triggerName ??
			workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name;
		if (!trigger) throw new Error(`Workflow ${id} has no manual trigger; pass triggerName`);
		// 2.x reads the stored workflow and validates the body (ManualRunDto, unknown keys
		// stripped); 1.x runs the workflowData sent in the body.
		const body =
			this.session.major >= 2
				? { triggerToStartFrom: { name: trigger } }
				: { workflowData, triggerToStartFrom: { name: trigger } };
		const answer = await this.session.request('POST', `/rest/workflows/${id}/run`, body);
		const started = unwrap(answer);
		if (!started?.executionId) {
			throw new Error(
				`n8n did not start an execution of workflow ${id}: ${JSON.stringify(answer)}`,
			);
		}
		return this.executions.waitUntilFinished(started.executionId, { timeoutMs });
	}

	/**
	 * Publishes (activates) a workflow: its triggers register their webhooks. n8n 1.x does it
	 * while answering; n8n 2.x queues the publication (an outbox) and reports it at
	 * `/rest/workflows/:id/publication-status`, which is polled here until it has settled.
	 * Rejects with the trigger's error message when activation failed.
	 */
	async activate(id, { timeoutMs = 60000 } = {}) {
		const { versionId } = await this.get(id);
		const answer = await this.session.request('POST', `/rest/workflows/${id}/activate`, {
			versionId,
		});
		if (this.session.major >= 2) {
			const status = await this.publicationStatus(id, {
				until: (state) => !['in_progress', 'not_published'].includes(state.status),
				timeoutMs,
			});
			if (status.status !== 'published') {
				const reasons = (status.triggers ?? [])
					.map((trigger) => trigger.errorMessage)
					.filter(Boolean);
				throw new Error(
					`Publishing workflow ${id} ${status.status}: ${reasons.join('; ') || 'no reason given'}`,
				);
			}
		}
		return unwrap(answer);
	}

	/** Unpublishes (deactivates) a workflow and, on 2.x, waits until that has settled. */
	async deactivate(id, { timeoutMs = 60000 } = {}) {
		const answer = await this.session.request('POST', `/rest/workflows/${id}/deactivate`, {});
		if (this.session.major >= 2) {
			await this.publicationStatus(id, {
				until: (state) => state.status === 'not_published',
				timeoutMs,
			});
		}
		return unwrap(answer);
	}

	/**
	 * n8n 2.x only: `{ status: 'in_progress' | 'published' | 'partial' | 'failed' |
	 * 'not_published', triggers }`; with `until`, polls until it returns true.
	 */
	async publicationStatus(id, { until, timeoutMs = 60000 } = {}) {
		const read = () =>
			this.session
				.request('GET', `/rest/workflows/${id}/publication-status`)
				.then(unwrap, failFast);
		if (!until) return read();
		return waitFor(read, {
			until,
			timeoutMs,
			intervalMs: 200,
			what: (status) => `the publication of workflow ${id} to settle (${JSON.stringify(status)})`,
		});
	}

	/** A production webhook URL: `<webhookBaseUrl>/webhook/<webhookId>/<path>`. */
	webhookUrl(webhookId, webhookPath = 'webhook') {
		return `${this.webhookBaseUrl}/webhook/${webhookId}/${webhookPath}`;
	}
}

module.exports = { WorkflowsApi };
