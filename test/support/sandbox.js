'use strict';
// Small helpers around the sandbox (dev/sandbox) for the trigger tests; requests to its API go
// through the one sandbox client, dev/sandbox/client.js.
const { startSandbox } = require('../../dev/sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');

/** A URL code created straight through the API (not through the nodes). */
async function createQrCode(sandbox, name = 'Test code') {
	const answer = await sandboxClient(sandbox).call('POST', '/qr-codes', {
		type: 'url',
		name,
		payload: { url: 'https://example.com/' + encodeURIComponent(name) },
	});
	return answer.data;
}

/** Every endpoint at the sandbox (all workspaces), optionally only those at one URL. */
async function endpoints(sandbox, url) {
	const all = (await sandbox.control('GET', '/webhooks')).data;
	return url === undefined ? all : all.filter((endpoint) => endpoint.url === url);
}

/** Lets every delivery attempt that is due run to its end (advancing the clock if asked). */
async function flushDeliveries(sandbox, seconds = 0) {
	await sandbox.control('POST', '/clock/advance', { seconds });
}

module.exports = { startSandbox, sandboxClient, createQrCode, endpoints, flushDeliveries };
