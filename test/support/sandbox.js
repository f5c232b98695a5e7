'use strict';
// Small helpers around the sandbox (dev/sandbox) for the trigger tests.
const { startSandbox } = require('../../dev/sandbox');

async function api(sandbox, method, path, body, key = sandbox.keys.readWrite) {
	const response = await fetch(`${sandbox.baseUrl}${path}`, {
		method,
		headers: {
			Authorization: `Bearer ${key}`,
			...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
		},
		body: body === undefined ? undefined : JSON.stringify(body),
	});
	const text = await response.text();
	return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

async function createQrCode(sandbox, name = 'Test code') {
	const answer = await api(sandbox, 'POST', '/qr-codes', {
		type: 'url',
		name,
		payload: { url: 'https://example.com/' + encodeURIComponent(name) },
	});
	if (answer.status !== 201)
		throw new Error(`create QR code answered ${answer.status}: ${JSON.stringify(answer.body)}`);
	return answer.body.data;
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

module.exports = { startSandbox, api, createQrCode, endpoints, flushDeliveries };
