'use strict';
/**
 * The credentials `npm run dev` gives n8n: Dynamic QR API credentials for the sandbox, made the
 * same way for the editor tests that check what a new node starts with, and the n8n API
 * credential the example repair-stopped-trigger signs in with.
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

/** The name the example repair-stopped-trigger gives its n8n API credential. */
const N8N_API_CREDENTIAL_NAME = 'n8n account';

/**
 * Creates an API key of the owner (Settings → n8n API) with what repair-stopped-trigger needs, and
 * the n8n API credential that holds it. Resolves with `{ id, name }`.
 */
async function createN8nApiCredential(n8n) {
	const key = await n8n.rest('POST', '/rest/api-keys', {
		label: 'repair-stopped-trigger',
		scopes: ['workflow:list', 'workflow:read', 'workflow:activate', 'workflow:deactivate'],
		expiresAt: null,
	});
	return n8n.createCredential({
		name: N8N_API_CREDENTIAL_NAME,
		type: 'n8nApi',
		data: { apiKey: key.data.rawApiKey, baseUrl: `${n8n.url.replace(/\/$/, '')}/api/v1` },
	});
}

module.exports = {
	createSandboxCredentials,
	createN8nApiCredential,
	CREDENTIAL_NAME,
	READ_ONLY_CREDENTIAL_NAME,
	N8N_API_CREDENTIAL_NAME,
};
