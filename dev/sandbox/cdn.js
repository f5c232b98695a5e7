'use strict';

// The CDN of the image-redirect-cdn reading: a second small listener on another loopback origin
// that serves image files the API redirected to, asking for no key, and keeps every request's
// headers so tests can prove no credential followed the redirect.

const http = require('node:http');
const { send, sendJson } = require('./http-util');

const READING = 'image-redirect-cdn';
const IMAGE_ROUTE = '/qr-codes/{id}/image';

/** Another origin on the same machine: the other loopback name, so host and port both differ. */
function otherLoopbackName(host) {
	return host === 'localhost' ? '127.0.0.1' : 'localhost';
}

function listen(server, host) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, host, () => {
			server.off('error', reject);
			resolve(server.address().port);
		});
	});
}

/**
 * @param {{ host: string, urlHost: string }} options `host` to listen on; `urlHost` the API's own
 *   host name in its URLs, which the CDN's URL must not share.
 */
async function startCdn({ host, urlHost }) {
	const files = new Map();
	const requests = [];
	const server = http.createServer((req, res) => {
		requests.push({ method: req.method, url: req.url, headers: { ...req.headers } });
		const file = req.method === 'GET' || req.method === 'HEAD' ? files.get(req.url) : undefined;
		if (!file) return sendJson(res, 404, { message: 'No such file on the CDN.', errors: {} });
		send(res, 200, req.method === 'HEAD' ? undefined : file.buffer, {
			'Content-Type': file.contentType,
			...file.headers,
		});
	});
	const port = await listen(server, host);
	const origin = `http://${otherLoopbackName(urlHost)}:${port}`;

	return {
		origin,
		/** Keeps a file under a path (with its query) and answers its URL on the CDN. */
		put(pathAndQuery, answer) {
			files.set(pathAndQuery, answer);
			return `${origin}${pathAndQuery}`;
		},
		requests: () => requests,
		reset() {
			files.clear();
			requests.length = 0;
		},
		close: () =>
			new Promise((resolve) => {
				server.close(() => resolve());
				server.closeAllConnections();
			}),
	};
}

/**
 * While the reading is on, the image route renders the file as usual, hands it to the CDN and
 * answers 302 to the same path there. Other routes are returned unchanged.
 */
function redirectImagesToCdn(routes, { readings, cdn }) {
	return routes.map((route) => {
		if (route.method !== 'GET' || route.path !== IMAGE_ROUTE) return route;
		return {
			...route,
			async handle(args) {
				const answer = await route.handle(args);
				if (!readings.isActive(READING) || answer.status !== 200 || !answer.buffer) return answer;
				const { pathname, search } = new URL(args.req.url, 'http://sandbox');
				const location = cdn.put(`${pathname}${search}`, answer);
				return {
					status: 302,
					json: { message: `The file is at ${location}.`, errors: {} },
					headers: { Location: location },
				};
			},
		};
	});
}

module.exports = { startCdn, redirectImagesToCdn, CDN_READING: READING };
