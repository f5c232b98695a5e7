'use strict';
/**
 * The one client for the sandbox's API (test setup, the sandbox's own tests, the end-to-end
 * suites): requests with an API key, straight to the sandbox, not through the nodes.
 *
 *   const api = sandboxClient(sandbox);                   // the read-write key
 *   const answer = await api.post('/qr-codes', { … });    // { status, headers, body, text, buffer }
 *   const code = (await api.call('POST', '/qr-codes', { … })).data; // throws unless 2xx
 *   sandboxClient(sandbox, sandbox.keys.readOnly);        // another key; null sends none
 *
 * Every answer is returned whatever its status: `body` is the answer parsed as JSON (undefined
 * when empty or not JSON), `text` and `buffer` the answer as it came. `call` is the convenience
 * for setup steps that must work: it throws an error naming the request and the answer unless
 * the status is 2xx, and returns `body`.
 */
const http = require('node:http');

/** Any HTTP request, answered as { status, headers, body, text, buffer }; rejects on a dropped socket. */
function request(url, { method = 'GET', headers = {}, body } = {}) {
	return new Promise((resolve, reject) => {
		const req = http.request(url, { method, headers }, (res) => {
			const chunks = [];
			res.on('data', (chunk) => chunks.push(chunk));
			res.on('end', () => {
				const buffer = Buffer.concat(chunks);
				const text = buffer.toString('utf8');
				let parsed;
				try {
					parsed = text ? JSON.parse(text) : undefined;
				} catch {
					parsed = undefined;
				}
				resolve({ status: res.statusCode, headers: res.headers, body: parsed, text, buffer });
			});
		});
		req.on('error', reject);
		req.end(body);
	});
}

/** A client for the sandbox API with one key (default read-write; null sends no Authorization). */
function sandboxClient(sandbox, key = sandbox.keys.readWrite) {
	const authorization = key ? { Authorization: `Bearer ${key}` } : {};
	/** A JSON request (body, when given, is sent as JSON); answered whatever the status. */
	const send = (method, apiPath, body, headers = {}) =>
		request(`${sandbox.baseUrl}${apiPath}`, {
			method,
			headers: {
				...authorization,
				...(body !== undefined ? { 'Content-Type': 'application/json' } : {}),
				...headers,
			},
			body: body === undefined ? undefined : JSON.stringify(body),
		});
	return {
		request: send,
		get: (apiPath, headers) => send('GET', apiPath, undefined, headers),
		post: (apiPath, body, headers) => send('POST', apiPath, body, headers),
		patch: (apiPath, body, headers) => send('PATCH', apiPath, body, headers),
		delete: (apiPath, headers) => send('DELETE', apiPath, undefined, headers),
		/** A request with a body sent as given (a Buffer, a multipart body) and only the headers given. */
		raw: (method, apiPath, options = {}) =>
			request(`${sandbox.baseUrl}${apiPath}`, {
				method,
				body: options.body,
				headers: { ...authorization, ...options.headers },
			}),
		/** A request that must succeed: its parsed answer, or an error naming the request and answer. */
		async call(method, apiPath, body) {
			const answer = await send(method, apiPath, body);
			if (answer.status < 200 || answer.status > 299)
				throw new Error(`sandbox ${method} ${apiPath} answered ${answer.status}: ${answer.text}`);
			return answer.body;
		},
	};
}

module.exports = { request, sandboxClient };
