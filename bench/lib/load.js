'use strict';
/** Bounded HTTP load on loopback: POSTs a fixed list of deliveries with a fixed concurrency. */
const http = require('node:http');

/**
 * Posts every delivery once to `url` with at most `concurrency` in flight. Resolves with
 * { startedAt, endedAt, statuses: { [code]: count }, latenciesMs: [] }. A request that fails
 * at the socket counts under status "error"; each has a 30 s timeout.
 */
async function postAll(url, deliveries, { concurrency }) {
	const target = new URL(url);
	const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
	const statuses = {};
	const latenciesMs = [];
	let next = 0;
	const postOne = (delivery) =>
		new Promise((resolve) => {
			const sent = process.hrtime.bigint();
			const req = http.request(
				target,
				{ method: 'POST', agent, headers: { ...delivery.headers, 'content-length': delivery.body.length } },
				(res) => {
					res.resume();
					res.on('end', () => {
						latenciesMs.push(Number(process.hrtime.bigint() - sent) / 1e6);
						statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
						resolve();
					});
				},
			);
			req.setTimeout(30000, () => req.destroy(new Error('timed out')));
			req.on('error', () => {
				statuses.error = (statuses.error ?? 0) + 1;
				resolve();
			});
			req.end(delivery.body);
		});
	const worker = async () => {
		while (next < deliveries.length) await postOne(deliveries[next++]);
	};
	const startedAt = Date.now();
	try {
		await Promise.all(Array.from({ length: Math.min(concurrency, deliveries.length) }, worker));
	} finally {
		agent.destroy();
	}
	return { startedAt, endedAt: Date.now(), statuses, latenciesMs };
}

module.exports = { postAll };
