'use strict';
/**
 * One real n8n for the whole bench run (dev/n8n/instance.js: provisioned once per machine,
 * our package built, packed and installed as a community package), with the credentials the
 * cases use, and readers for what a run left in the execution.
 */
const { startN8n, N8N_VERSIONS } = require('../../dev/n8n/instance');

const CREDENTIALS = {
	ours: { name: 'Dynamic QR (bench)', type: 'dynamicQrApi' },
	bearer: { name: 'Bearer (bench)', type: 'httpBearerAuth' },
};

async function start({ sandbox, log, n8nLog, env = {}, packageDir }) {
	const n8n = await startN8n({
		version: N8N_VERSIONS.current,
		// Another checkout of this package (e.g. an earlier revision) instead of this one.
		...(packageDir ? { packageDir } : {}),
		log,
		n8nLog,
		// n8n's defaults, but a quieter log (it goes to a file; warnings and errors still do), and
		// node:crypto for the Code node of the trigger case's careful-user workflow.
		env: { N8N_LOG_LEVEL: 'warn', NODE_FUNCTION_ALLOW_BUILTIN: 'crypto', ...env },
	});
	try {
		const ours = await n8n.createCredential({
			...CREDENTIALS.ours,
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		const bearer = await n8n.createCredential({
			...CREDENTIALS.bearer,
			data: { token: sandbox.keys.readWrite },
		});
		return { n8n, credentials: { ours, bearer } };
	} catch (error) {
		await n8n.stop();
		throw error;
	}
}

/** The last run of a node in an execution: { ms, items, error } (items = main output 0). */
function nodeRun(execution, name) {
	const runs = execution.runData?.[name];
	const task = runs?.[runs.length - 1];
	if (!task) return { ran: false, ms: NaN, items: [], error: execution.error?.message ?? 'did not run' };
	return {
		ran: true,
		ms: task.executionTime,
		startTime: task.startTime,
		items: task.data?.main?.[0] ?? [],
		error: task.error ? task.error.message || String(task.error) : null,
	};
}

/** Count of a workflow's saved executions (n8n's REST list answers `count`). */
async function executionCount(n8n, workflowId) {
	const filter = encodeURIComponent(JSON.stringify({ workflowId: String(workflowId) }));
	const answer = await n8n.rest('GET', `/rest/executions?filter=${filter}&limit=1`);
	const data = answer.data ?? answer;
	if (typeof data.count === 'number') return data.count;
	return (data.results ?? data).length;
}

/** Imports each `[key, { label, json }]` variant: `{ [key]: { label, workflowId, runs: [] } }`. */
async function createVariantWorkflows(n8n, variants) {
	const results = {};
	for (const [key, variant] of variants) {
		const { id } = await n8n.createWorkflow(variant.json);
		results[key] = { label: variant.label, workflowId: id, runs: [] };
	}
	return results;
}

module.exports = { start, nodeRun, executionCount, createVariantWorkflows, N8N_VERSIONS };
