'use strict';

// Shared by the sandbox's own tests: a started sandbox and small HTTP clients for it.

const http = require('node:http');
const { startSandbox } = require('../../dev/sandbox');
const { decodePng } = require('../support/qr-image');

/** Any HTTP request, answered as { status, headers, text, json, buffer }; rejects on a dropped socket. */
function request(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method, headers }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () => {
				const buffer = Buffer.concat(chunks);
				const text = buffer.toString('utf8');
				let json;
				try {
					json = text ? JSON.parse(text) : undefined;
				} catch {
					json = undefined;
				}
				resolve({ status: res.statusCode, headers: res.headers, buffer, text, json });
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** A client for the sandbox API with one key: api.get('/me'), api.post('/qr-codes', body, headers). */
function apiClient(sandbox, key) {
	const call = (method, path, body, headers = {}) =>
		request(`${sandbox.baseUrl}${path}`, {
			method,
			headers: {
				...(key ? { Authorization: `Bearer ${key}` } : {}),
				...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	return {
		get: (path, headers) => call('GET', path, undefined, headers),
		post: (path, body, headers) => call('POST', path, body, headers),
		patch: (path, body, headers) => call('PATCH', path, body, headers),
		delete: (path, headers) => call('DELETE', path, undefined, headers),
		raw: (method, path, options = {}) =>
			request(`${sandbox.baseUrl}${path}`, {
				method,
				body: options.body,
				headers: { ...(key ? { Authorization: `Bearer ${key}` } : {}), ...options.headers },
			}),
	};
}

/** Starts a sandbox before the file's tests and closes it after; returns a getter-backed handle. */
function useSandbox(options = {}) {
	const handle = {};
	beforeAll(async () => {
		const sandbox = await startSandbox(options);
		Object.assign(handle, sandbox, {
			sandbox,
			api: apiClient(sandbox, sandbox.keys.readWrite),
			readOnlyApi: apiClient(sandbox, sandbox.keys.readOnly),
			basicApi: apiClient(sandbox, sandbox.keys.noSmartRedirects),
		});
	});
	afterAll(() => handle.sandbox && handle.sandbox.close());
	return handle;
}

/**
 * A local webhook receiver that keeps every delivery ({ headers, rawBody, json }) and answers
 * `receiver.status` (200 unless a test changes it).
 */
async function startReceiver() {
	const receiver = { deliveries: [], status: 200 };
	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const rawBody = Buffer.concat(chunks).toString('utf8');
			receiver.deliveries.push({ headers: req.headers, rawBody, json: JSON.parse(rawBody) });
			res.writeHead(receiver.status).end();
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	receiver.url = `http://127.0.0.1:${server.address().port}/hook`;
	receiver.ofType = (type) => receiver.deliveries.filter((delivery) => delivery.json.type === type);
	receiver.close = () => new Promise((resolve) => server.close(resolve));
	return receiver;
}

/** Lets every delivery attempt under way finish (advancing the clock by 0 runs what is due and waits). */
const settleDeliveries = (sandbox) => sandbox.control('POST', '/clock/advance', { seconds: 0 });

const USER_AGENTS = {
	iphoneSafari:
		'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
	androidChrome:
		'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
	windowsEdge:
		'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
	macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
	ipadSafari:
		'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};

module.exports = {
	request,
	apiClient,
	useSandbox,
	decodePng,
	startReceiver,
	settleDeliveries,
	USER_AGENTS,
};
