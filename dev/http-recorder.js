'use strict';
/**
 * The one local HTTP recorder of the tests and the dev tooling: a server on 127.0.0.1 (a free
 * port) that keeps every request it receives, in one shape, and answers what its caller set.
 * It stands in for a webhook receiver (the sandbox's deliveries), a chat or CRM endpoint (the
 * example workflows, `npm run dev`'s inbox) or anything else a request is sent to.
 *
 *   const recorder = await startRecorder();
 *   recorder.url                 // 'http://127.0.0.1:<port>'
 *   recorder.urlFor('/hook')     // 'http://127.0.0.1:<port>/hook'
 *   recorder.records             // [{ method, path, headers, body, rawBody, rawBytes, at }]
 *   recorder.answerWith(500, { delayMs: 50, headers: {}, body: '' })
 *   await recorder.waitFor(3)    // the records, once there are at least 3
 *   await recorder.close()
 *
 * A record's `path` is the request URL's path and query as sent, `rawBody` the body as text
 * (exactly as it came: signatures are checked on it), `body` that text parsed as JSON (undefined
 * when empty or not JSON) and `at` the time it arrived (ms). Until answerWith() is called every
 * request is answered 200 with `{"ok":true}`.
 */
const http = require('node:http');

const DEFAULT_ANSWER = {
	status: 200,
	headers: { 'content-type': 'application/json' },
	body: '{"ok":true}',
	delayMs: 0,
};

function parsed(text) {
	if (!text) return undefined;
	try {
		return JSON.parse(text);
	} catch {
		return undefined;
	}
}

/**
 * Starts a recorder. `onRecord(record)` (optional) is called with every record as it arrives,
 * before the answer is sent. `respond(record, req, res)` (optional) answers instead of
 * answerWith(): a stand-in for a server with logic of its own (the engine tests' n8n webhook
 * host); `req` is handed on with its body read (`record.rawBytes`).
 */
async function startRecorder({ onRecord, respond } = {}) {
	const records = [];
	const waiters = new Set();
	let answer = DEFAULT_ANSWER;

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const rawBytes = Buffer.concat(chunks);
			const rawBody = rawBytes.toString('utf8');
			const record = {
				method: req.method,
				path: req.url,
				headers: req.headers,
				body: parsed(rawBody),
				rawBody,
				rawBytes,
				at: Date.now(),
			};
			records.push(record);
			onRecord?.(record);
			for (const waiter of waiters) waiter();
			if (respond) return respond(record, req, res);
			const { status, headers, body, delayMs } = answer;
			const send = () => res.writeHead(status, headers).end(body);
			if (delayMs > 0) setTimeout(send, delayMs).unref();
			else send();
		});
	});
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	const url = `http://127.0.0.1:${server.address().port}`;

	return {
		url,
		records,
		urlFor: (urlPath = '/') => `${url}${urlPath}`,
		/** What every later request is answered: a status, and optionally headers, a body, a delay. */
		answerWith(status, { headers = {}, body = '', delayMs = 0 } = {}) {
			answer = { status, headers, body, delayMs };
		},
		/** Resolves with the records once there are at least `count`; rejects after `timeoutMs`. */
		waitFor(count, { timeoutMs = 10000 } = {}) {
			if (records.length >= count) return Promise.resolve(records);
			return new Promise((resolve, reject) => {
				const check = () => {
					if (records.length < count) return;
					done();
					resolve(records);
				};
				const timer = setTimeout(() => {
					done();
					reject(new Error(`${records.length} of ${count} requests arrived in ${timeoutMs} ms`));
				}, timeoutMs);
				const done = () => {
					clearTimeout(timer);
					waiters.delete(check);
				};
				waiters.add(check);
			});
		},
		/** Stops the server, dropping connections still open (answers being delayed included). */
		close() {
			server.closeAllConnections();
			return new Promise((resolve) => server.close(resolve));
		},
	};
}

module.exports = { startRecorder };
