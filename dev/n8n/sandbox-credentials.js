'use strict';
/**
 * The Dynamic QR API credentials `npm run dev` gives n8n for the sandbox, made the same way for
 * the editor tests that check what a new node starts with.
 */
const { CREDENTIAL_NAME } = require('../examples');

const READ_ONLY_CREDENTIAL_NAME = 'Dynamic QR read-only key';

/**
 * Creates a read-only and a read-write credential for `sandbox` in `n8n` (instance.js). n8n's
 * editor gives a new node the most recently changed credential of its type: the read-write one is
 * made last, so a new Dynamic QR node can create codes at once. Resolves with both `{ id, name }`.
 */
async function createSandboxCredentials(n8n, sandbox) {
	const data = (apiKey) => ({ apiKey, baseUrl: sandbox.baseUrl });
	const readOnly = await n8n.createCredential({
		name: READ_ONLY_CREDENTIAL_NAME,
		type: 'dynamicQrApi',
		data: data(sandbox.keys.readOnly),
	});
	const readWrite = await n8n.createCredential({
		name: CREDENTIAL_NAME,
		type: 'dynamicQrApi',
		data: data(sandbox.keys.readWrite),
	});
	return { readOnly, readWrite };
}

module.exports = { createSandboxCredentials, CREDENTIAL_NAME, READ_ONLY_CREDENTIAL_NAME };
