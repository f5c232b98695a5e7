'use strict';
/**
 * n8n 2.x's `poller_state` table, where n8n keeps a polling trigger's static data apart from the
 * workflow when durable poll cursors are on (N8N_POLLER_DURABLE_CURSORS_ENABLED with the
 * scheduler), with the poll's failures and backoff. Read from the SQLite database of an n8n that
 * instance.js started, with the Node 24 that n8n runs on (its `node:sqlite`; the Node 20 of the
 * tests has none), read-only.
 */
const { execFileSync } = require('node:child_process');
const path = require('node:path');

const READ_ROWS = `
const { DatabaseSync } = require('node:sqlite');
const [file, workflowId] = process.argv.slice(1);
const db = new DatabaseSync(file, { readOnly: true });
const rows = db.prepare('SELECT * FROM poller_state WHERE workflowId = ?').all(workflowId);
db.close();
process.stdout.write(JSON.stringify(rows));
`;

/**
 * The rows of a workflow (one per polling trigger node): `{ nodeId, cursor, consecutiveErrors,
 * backoffUntil }`, `cursor` parsed (the node's static data as n8n last committed it).
 * @param {{ runtime: { nodeBin: string }, userFolder: string }} n8n what startN8n() resolved with
 * @param {string} workflowId
 */
function pollerState(n8n, workflowId) {
	const database = path.join(n8n.userFolder, '.n8n', 'database.sqlite');
	const output = execFileSync(
		n8n.runtime.nodeBin,
		['--no-warnings', '-e', READ_ROWS, database, String(workflowId)],
		{ encoding: 'utf8' },
	);
	return JSON.parse(output).map((row) => ({
		nodeId: row.nodeId,
		cursor: JSON.parse(row.cursor),
		consecutiveErrors: row.consecutiveErrors,
		backoffUntil: row.backoffUntil,
	}));
}

module.exports = { pollerState };
