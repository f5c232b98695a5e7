'use strict';
/**
 * The executions area of n8n's REST API: list a workflow's executions (paged as each n8n line
 * pages them), read one, wait until one has finished, retry one, and read binary output.
 */
const { waitFor } = require('../../wait-for');
const { describeExecution, isFinished } = require('../execution');
const { unwrap, failFast } = require('./session');

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

class ExecutionsApi {
	/** @param {import('./session').RestSession} session */
	constructor(session) {
		this.session = session;
	}

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
	async list(workflowId, { limit = Infinity } = {}) {
		const byId = new Map();
		let bound = {};
		while (byId.size < limit) {
			const filter = encodeURIComponent(
				JSON.stringify({ workflowId: String(workflowId), ...bound.filter }),
			);
			const answer = await this.session.request(
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
	}

	/** One execution, parsed: `{ id, status, runData, error, data, items(nodeName) }`. */
	async get(id) {
		return describeExecution((await this.session.request('GET', `/rest/executions/${id}`)).data);
	}

	/** Polls an execution until it has finished; resolves like get(). */
	async waitUntilFinished(executionId, { timeoutMs = 180000 } = {}) {
		const record = await waitFor(
			() =>
				this.session.request('GET', `/rest/executions/${executionId}`).then(unwrap, (error) =>
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
	}

	/**
	 * Retries a failed execution as the executions list's Retry does ("with the original
	 * workflow", or `loadWorkflow` for "with the currently saved workflow"). n8n starts a new
	 * execution in mode `retry`; resolves with it once it has finished, like get().
	 */
	async retry(workflowId, executionId, { loadWorkflow = false, timeoutMs } = {}) {
		const before = new Set((await this.list(workflowId)).map((execution) => execution.id));
		await this.session.request('POST', `/rest/executions/${executionId}/retry`, { loadWorkflow });
		// 1.x answers whether the retry finished, 2.x the new execution's summary: neither names
		// the new id on both lines, so it is the workflow's new execution in mode `retry`.
		const started = await waitFor(
			async () =>
				(await this.list(workflowId)).find(
					(execution) => !before.has(execution.id) && execution.mode === 'retry',
				) ?? null,
			{ timeoutMs, what: `the retry of execution ${executionId} to start` },
		);
		return this.waitUntilFinished(started.id, { timeoutMs });
	}

	/**
	 * The bytes of a binary property of an output item. Inline data (binary mode "default")
	 * is decoded; data kept in n8n's binary store (the default "filesystem" mode) is read
	 * through n8n's REST endpoint `GET /rest/binary-data`.
	 */
	async binary(binaryData) {
		if (!binaryData) throw new Error('No binary data');
		if (!binaryData.id) return Buffer.from(binaryData.data, 'base64');
		const query = new URLSearchParams({ id: binaryData.id, action: 'download' });
		const response = await this.session.request('GET', `/rest/binary-data?${query}`, undefined, {
			raw: true,
		});
		if (!response.ok) {
			throw new Error(
				`n8n GET /rest/binary-data answered ${response.status}: ${await response.text()}`,
			);
		}
		return Buffer.from(await response.arrayBuffer());
	}
}

module.exports = { ExecutionsApi, EXECUTIONS_PAGE };
