'use strict';
/** An execution record of n8n's REST API, parsed into what tests and tools read from it. */

function parseFlatted(value) {
	if (typeof value !== 'string') return value ?? null;
	// flatted is a dev dependency (n8n stores execution data with it).
	return require('flatted').parse(value);
}

/** `{ id, status, runData, error, data, items(nodeName) }` for one execution record. */
function describeExecution(record) {
	const data = parseFlatted(record.data);
	const resultData = data?.resultData ?? {};
	const runData = resultData.runData ?? {};
	const error = resultData.error
		? {
				message: resultData.error.message,
				description: resultData.error.description ?? null,
				node: resultData.error.node?.name ?? null,
				httpCode: resultData.error.httpCode ?? null,
			}
		: null;
	return {
		id: String(record.id),
		workflowId: record.workflowId ?? record.workflowData?.id ?? null,
		status: record.status ?? (record.finished ? 'success' : 'unknown'),
		mode: record.mode,
		startedAt: record.startedAt,
		stoppedAt: record.stoppedAt,
		lastNodeExecuted: resultData.lastNodeExecuted ?? null,
		runData,
		error,
		data,
		/**
		 * The items a node put out: its `output`-th main output in its `run`-th run (both 0 by
		 * default), each `{ json, binary, pairedItem }`. Throws when the node did not run.
		 */
		items(nodeName, { run = 0, output = 0 } = {}) {
			const runs = runData[nodeName];
			if (!runs) {
				throw new Error(
					`Node "${nodeName}" did not run in execution ${record.id} (ran: ${Object.keys(runData).join(', ') || 'nothing'})${error ? `; error: ${error.message}` : ''}`,
				);
			}
			const task = runs[run];
			if (!task) throw new Error(`Node "${nodeName}" has no run ${run} in execution ${record.id}`);
			if (task.error) {
				throw new Error(
					`Node "${nodeName}" failed in execution ${record.id}: ${task.error.message}`,
				);
			}
			return task.data?.main?.[output] ?? [];
		},
	};
}

const FINISHED = new Set(['success', 'error', 'crashed', 'canceled', 'cancelled']);

/** Whether an execution record (as n8n's REST API answers it) has finished. */
function isFinished(record) {
	return Boolean(record && (FINISHED.has(record.status) || (record.finished && record.stoppedAt)));
}

module.exports = { describeExecution, isFinished };
