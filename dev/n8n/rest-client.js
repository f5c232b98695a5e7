'use strict';
/**
 * n8n's REST API as its editor uses it, signed in as the owner (the `n8n-auth` cookie): the
 * credentials, workflows, runs, executions, activation and binary data the tests and tools
 * drive. One client per n8n main process; a queue cluster uses its main's client.
 *
 *   const client = createRestClient({ url, major: 2 });
 *   await client.signInAsOwner(owner);
 *   const workflow = await client.createWorkflow(require('../../examples/….json'));
 *   const run = await client.runWorkflow(workflow.id); // { id, status, runData, error, items(node) }
 */
const crypto = require('node:crypto');

const { waitFor, giveUp } = require('../wait-for');
const { describeExecution, isFinished } = require('./execution');

/** The most executions n8n lists in one answer (2.41 refuses a larger `limit`). */
const EXECUTIONS_PAGE = 100;

/** n8n before 2.41: the executions older than the page's oldest id, or null after the last page. */
function nextIdRange(page) {
	if (page.length < EXECUTIONS_PAGE) return null;
	const lowest = Math.min(...page.map((execution) => Number(execution.id)));
	return { query: `&firstId=0&lastId=${lowest}` };
}

/**
 * n8n 2.41+: the executions that started at or before the oldest start on this answer's page,
 * or null after the last page. (An answer lists the running executions first, then a page of
 * the others newest first, and has a `nextCursor` when that page is full.) A full page that all
 * started in the same millisecond cannot be paged past: that is an error, not a short list.
 */
function nextStartWindow(data, bound) {
	if (!data.nextCursor) return null;
	const oldest = data.results.at(-1);
	const startedBefore = oldest.startedAt ?? oldest.createdAt;
	if (startedBefore === bound.filter?.startedBefore) {
		throw new Error(
			`Cannot page n8n's executions past ${startedBefore}: a whole page started then`,
		);
	}
	return { filter: { startedBefore } };
}

/** Ends a poll at once on an error answer: asking n8n again would not change it. */
const failFast = (error) => {
	throw giveUp(error);
};

/**
 * @param {object} options
 * @param {string} options.url n8n's base URL (`http://127.0.0.1:<port>`)
 * @param {number} options.major n8n's major version: 1.x and 2.x differ in some request bodies
 * @param {string} [options.webhookBaseUrl] where production webhooks are called (default `url`;
 *   a queue cluster's balancer)
 */
function createRestClient({ url, major, webhookBaseUrl = url }) {
	const browserId = crypto.randomUUID();
	let cookie = '';
	/** Credentials created through this client, by type and name, for createWorkflow's mapping. */
	const credentialsByName = new Map();

	async function request(method, pathname, body, { raw = false } = {}) {
		const headers = { 'browser-id': browserId, accept: 'application/json' };
		if (cookie) headers.cookie = cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const send = () =>
			fetch(`${url}${pathname}`, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
				redirect: 'manual',
			});
		let response;
		try {
			response = await send();
		} catch (error) {
			// A kept-alive connection that n8n closed just as it was reused ("other side closed"):
			// the request never reached n8n, so it is sent once more on a new connection.
			if (error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
			response = await send();
		}
		for (const setCookie of response.headers.getSetCookie?.() ?? []) {
			const match = /^n8n-auth=([^;]*)/.exec(setCookie);
			if (match) cookie = `n8n-auth=${match[1]}`;
		}
		if (raw) return response;
		const text = await response.text();
		if (!response.ok) {
			const error = new Error(
				`n8n ${method} ${pathname} answered ${response.status}: ${text.slice(0, 2000)}`,
			);
			error.status = response.status;
			error.body = text;
			throw error;
		}
		try {
			return text ? JSON.parse(text) : null;
		} catch {
			return text;
		}
	}

	/** Most REST answers wrap their payload in `data`. */
	const unwrap = (answer) => answer?.data ?? answer;

	const client = {
		url,
		major,

		/**
		 * A request to n8n's HTTP API as the signed-in owner. `path` is from n8n's root (e.g.
		 * '/rest/workflows'). Resolves with the parsed JSON answer as n8n sends it (most REST
		 * answers wrap their payload in `data`); throws on a non-2xx answer with `status` and
		 * `body` set on the error.
		 */
		rest: (method, pathname, body) => request(method, pathname, body),

		/** A raw fetch Response (for binary downloads and webhooks). */
		fetch: (method, pathname, body) => request(method, pathname, body, { raw: true }),

		/** Sets up the owner account when n8n has none yet, else signs in as that owner. */
		async signInAsOwner(owner) {
			const settings = unwrap(await request('GET', '/rest/settings'));
			if (settings?.userManagement?.showSetupOnFirstLoad !== false) {
				const { email, firstName, lastName, password } = owner;
				await request('POST', '/rest/owner/setup', { email, firstName, lastName, password });
			} else {
				await request(
					'POST',
					'/rest/login',
					major >= 2
						? { emailOrLdapLoginId: owner.email, password: owner.password }
						: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
				);
			}
			if (!cookie) throw new Error('n8n set no n8n-auth cookie when signing in');
		},

		/** The names of the node types n8n has loaded. */
		async nodeTypeNames() {
			const types = await request('GET', '/types/nodes.json');
			return new Set((Array.isArray(types) ? types : []).map((type) => type.name));
		},

		/** Creates a credential: `{ name, type, data }` -> `{ id, name }`. */
		async createCredential({ name, type, data }) {
			const record = unwrap(await request('POST', '/rest/credentials', { name, type, data }));
			const created = { id: String(record.id), name: record.name };
			credentialsByName.set(`${type}\u0000${name}`, created);
			return created;
		},

		/**
		 * Runs the credential's connection test as the editor's Test button does (n8n tests a saved
		 * credential, with the data given): `{ id, name, type, data }` -> `{ status: 'OK' | 'Error',
		 * message }`. Without an `id` the credential is created first, as the editor saves before
		 * testing.
		 */
		async testCredential({ id, name, type, data }) {
			const credentialId = id ?? (await client.createCredential({ name, type, data })).id;
			return unwrap(
				await request('POST', '/rest/credentials/test', {
					credentials: { id: credentialId, name, type, data },
				}),
			);
		},

		/**
		 * Imports a workflow (the JSON of examples/*.json or of n8n's "Download") as a new, inactive
		 * workflow -> `{ id, versionId, name, webhookIds }`.
		 *
		 * Credentials are referenced by name: every `node.credentials[type] = { name }` (an `id` in
		 * the file is ignored) is bound to the credential of that type and name created through
		 * createCredential() on this client; `options.credentials` (`{ [name]: id }`) adds or
		 * overrides bindings. An unknown name is an error, not a silently broken workflow.
		 *
		 * Every node that has a `webhookId` gets a fresh one (as n8n's editor does on paste), so
		 * the same example can be imported twice without webhook path conflicts; `webhookIds`
		 * maps node names to them. `options.keepWebhookIds` keeps those of the file.
		 * `options.name` renames the workflow; `options.patch(nodesByName)` may edit nodes first.
		 */
		async createWorkflow(workflowJson, opts = {}) {
			const workflow = JSON.parse(JSON.stringify(workflowJson));
			const nodes = workflow.nodes ?? [];
			const webhookIds = {};
			for (const node of nodes) {
				for (const [type, reference] of Object.entries(node.credentials ?? {})) {
					const name = reference?.name;
					const id = opts.credentials?.[name] ?? credentialsByName.get(`${type}\u0000${name}`)?.id;
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
				await request('POST', '/rest/workflows', {
					name: opts.name ?? workflow.name ?? 'Imported workflow',
					nodes,
					connections: workflow.connections ?? {},
					settings: workflow.settings ?? { executionOrder: 'v1' },
					pinData: workflow.pinData ?? {},
					active: false,
				}),
			);
			return { id: String(record.id), versionId: record.versionId, name: record.name, webhookIds };
		},

		/** The stored workflow (`data` of GET /rest/workflows/:id). */
		async workflow(id) {
			return unwrap(await request('GET', `/rest/workflows/${id}`));
		},

		/**
		 * Runs a workflow as the editor's "Execute workflow" button does, from its manual trigger
		 * (or `triggerName`), and waits until the execution has finished. Resolves with the
		 * execution read back from n8n: `{ id, status, runData, error, items(nodeName) }`.
		 * A finished execution with status 'error' resolves too: check `status` / `error`.
		 */
		async runWorkflow(id, { triggerName, timeoutMs = 180000 } = {}) {
			const workflowData = await client.workflow(id);
			const trigger =
				triggerName ??
				workflowData.nodes.find((node) => node.type === 'n8n-nodes-base.manualTrigger')?.name;
			if (!trigger) throw new Error(`Workflow ${id} has no manual trigger; pass triggerName`);
			// 2.x reads the stored workflow and validates the body (ManualRunDto, unknown keys
			// stripped); 1.x runs the workflowData sent in the body.
			const body =
				major >= 2
					? { triggerToStartFrom: { name: trigger } }
					: { workflowData, triggerToStartFrom: { name: trigger } };
			const answer = await request('POST', `/rest/workflows/${id}/run`, body);
			const started = unwrap(answer);
			if (!started?.executionId) {
				throw new Error(
					`n8n did not start an execution of workflow ${id}: ${JSON.stringify(answer)}`,
				);
			}
			return client.waitForExecution(started.executionId, { timeoutMs });
		},

		/**
		 * Retries a failed execution as the executions list's Retry does ("with the original
		 * workflow", or `loadWorkflow` for "with the currently saved workflow"). n8n starts a new
		 * execution in mode `retry`; resolves with it once it has finished, like execution().
		 */
		async retryExecution(workflowId, executionId, { loadWorkflow = false, timeoutMs } = {}) {
			const before = new Set(
				(await client.executions(workflowId)).map((execution) => execution.id),
			);
			await request('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow });
			// 1.x answers whether the retry finished, 2.x the new execution's summary: neither names
			// the new id on both lines, so it is the workflow's new execution in mode `retry`.
			const started = await waitFor(
				async () =>
					(await client.executions(workflowId)).find(
						(execution) => !before.has(execution.id) && execution.mode === 'retry',
					) ?? null,
				{ timeoutMs, what: `the retry of execution ${executionId} to start` },
			);
			return client.waitForExecution(started.id, { timeoutMs });
		},

		/** Polls an execution until it has finished; resolves like execution(). */
		async waitForExecution(executionId, { timeoutMs = 180000 } = {}) {
			const record = await waitFor(
				() =>
					request('GET', `/rest/executions/${executionId}`).then(unwrap, (error) =>
						// Not saved yet: asked again.
						error.status === 404 ? null : failFast(error),
					),
				{
					timeoutMs,
					until: isFinished,
					what: (last) => `execution ${executionId} to finish (status ${last?.status})`,
				},
			);
			return describeExecution(record);
		},

		/**
		 * Publishes (activates) a workflow: its triggers register their webhooks. n8n 1.x does it
		 * while answering; n8n 2.x queues the publication (an outbox) and reports it at
		 * `/rest/workflows/:id/publication-status`, which is polled here until it has settled.
		 * Rejects with the trigger's error message when activation failed.
		 */
		async activate(id, { timeoutMs = 60000 } = {}) {
			const { versionId } = await client.workflow(id);
			const answer = await request('POST', `/rest/workflows/${id}/activate`, { versionId });
			if (major >= 2) {
				const status = await client.publicationStatus(id, {
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
		},

		/** Unpublishes (deactivates) a workflow and, on 2.x, waits until that has settled. */
		async deactivate(id, { timeoutMs = 60000 } = {}) {
			const answer = await request('POST', `/rest/workflows/${id}/deactivate`, {});
			if (major >= 2) {
				await client.publicationStatus(id, {
					until: (state) => state.status === 'not_published',
					timeoutMs,
				});
			}
			return unwrap(answer);
		},

		/**
		 * n8n 2.x only: `{ status: 'in_progress' | 'published' | 'partial' | 'failed' |
		 * 'not_published', triggers }`; with `until`, polls until it returns true.
		 */
		async publicationStatus(id, { until, timeoutMs = 60000 } = {}) {
			const read = () =>
				request('GET', `/rest/workflows/${id}/publication-status`).then(unwrap, failFast);
			if (!until) return read();
			return waitFor(read, {
				until,
				timeoutMs,
				intervalMs: 200,
				what: (status) => `the publication of workflow ${id} to settle (${JSON.stringify(status)})`,
			});
		},

		/**
		 * Summaries of a workflow's executions, newest first: `{ id, status, mode, startedAt,
		 * stoppedAt, workflowId }`; at most `limit` (default: all of them).
		 *
		 * n8n answers at most 100 a page (2.41 refuses more, older versions cap silently), so the
		 * list is read page by page. Older versions page by id (`lastId`). 2.41 refuses `firstId` /
		 * `lastId` and offers a `nextCursor`, but its pages are sorted by start time while the
		 * cursor pages by id (`id < cursor`): when executions start in another order than they were
		 * created (a worker running several at once), the next page repeats some executions and
		 * skips others. So on 2.41 the pages are windows of start time instead (`startedBefore`,
		 * inclusive: executions on the boundary come twice and are kept once).
		 */
		async executions(workflowId, { limit = Infinity } = {}) {
			const byId = new Map();
			let bound = {};
			while (byId.size < limit) {
				const filter = encodeURIComponent(
					JSON.stringify({ workflowId: String(workflowId), ...bound.filter }),
				);
				const answer = await request(
					'GET',
					`/rest/executions?filter=${filter}&limit=${EXECUTIONS_PAGE}${bound.query ?? ''}`,
				);
				const data = answer.data ?? answer;
				const page = data.results ?? data ?? [];
				for (const execution of page) {
					const id = String(execution.id);
					if (byId.has(id) || byId.size >= limit) continue;
					byId.set(id, {
						id,
						status: execution.status,
						mode: execution.mode,
						startedAt: execution.startedAt,
						stoppedAt: execution.stoppedAt,
						workflowId: String(execution.workflowId),
					});
				}
				const next = 'nextCursor' in data ? nextStartWindow(data, bound) : nextIdRange(page);
				if (!next) break;
				bound = next;
			}
			return [...byId.values()].sort((a, b) => Number(b.id) - Number(a.id));
		},

		/** One execution, parsed: `{ id, status, runData, error, data, items(nodeName) }`. */
		async execution(id) {
			return describeExecution((await request('GET', `/rest/executions/${id}`)).data);
		},

		/**
		 * The bytes of a binary property of an output item. Inline data (binary mode "default")
		 * is decoded; data kept in n8n's binary store (the default "filesystem" mode) is read
		 * through n8n's REST endpoint `GET /rest/binary-data`.
		 */
		async binary(binaryData) {
			if (!binaryData) throw new Error('No binary data');
			if (!binaryData.id) return Buffer.from(binaryData.data, 'base64');
			const query = new URLSearchParams({ id: binaryData.id, action: 'download' });
			const response = await request('GET', `/rest/binary-data?${query}`, undefined, { raw: true });
			if (!response.ok) {
				throw new Error(
					`n8n GET /rest/binary-data answered ${response.status}: ${await response.text()}`,
				);
			}
			return Buffer.from(await response.arrayBuffer());
		},

		/** A production webhook URL: `<webhookBaseUrl>/webhook/<webhookId>/<path>`. */
		webhookUrl(webhookId, webhookPath = 'webhook') {
			return `${webhookBaseUrl}/webhook/${webhookId}/${webhookPath}`;
		},
	};
	return client;
}

module.exports = { createRestClient };
