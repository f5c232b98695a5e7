'use strict';
/**
 * A round-robin HTTP load balancer in this Node process, in front of a queue-mode cluster:
 * `/webhook/…` (production webhooks) goes to the webhook processors, round-robin, or to the
 * processor `balancer.route(req)` returns; everything else goes to main. A processor that does
 * not accept the connection (stopped, restarting) is answered 502 and recorded as such: no
 * fail-over by default, so a delivery sent to a processor that is down fails as it would behind a
 * load balancer without health checks, and the sender's retries are what is tested.
 * `balancer.failover = true` instead tries the next processor when a connection is refused.
 */
const http = require('node:http');

/**
 * Starts the balancer on 127.0.0.1 and records every request it forwards. `webhookPorts()` is read
 * per request, so a restarted processor keeps its place.
 */
async function startBalancer({ mainPort, webhookPorts, log }) {
	const records = [];
	const firstProcessor = new Map(); // webhook-id -> index of the processor that answered it first
	let next = 0;

	const balancer = {
		url: '',
		/** `(req) => index | undefined`: the webhook processor for this request (undefined: round-robin). */
		route: undefined,
		/** When true, a refused connection is tried on the next processor instead of answering 502. */
		failover: false,
		/** A status to answer every webhook request with, unforwarded (n8n away), or undefined. */
		refuse: undefined,
		/** One record per forwarded request: `{ seq, at, answeredAt, method, path, webhookId, target, processor, status, answer, error, tried }` (`answer`: a webhook answer's first 200 characters). */
		records,
		/** Records of `/webhook/` requests only. */
		webhookRecords: () => records.filter((record) => record.target === 'webhook'),
		/** Index of the processor that first answered a request with this `webhook-id` header. */
		firstProcessorOf: (webhookId) => firstProcessor.get(webhookId),
		/** Requests with this `webhook-id`, in order. */
		recordsOf: (webhookId) => records.filter((record) => record.webhookId === webhookId),
		close: undefined,
	};

	const forward = (port, req, body) =>
		new Promise((resolve) => {
			const upstream = http.request(
				{
					host: '127.0.0.1',
					port,
					method: req.method,
					path: req.url,
					headers: { ...req.headers, 'content-length': String(body.length) },
					agent: false, // a fresh connection each time: a restarted processor has no stale sockets
				},
				(response) => resolve({ response }),
			);
			upstream.on('error', (error) => resolve({ error }));
			upstream.setTimeout(60000, () => upstream.destroy(new Error('no answer within 60 s')));
			upstream.end(body);
		});

	const server = http.createServer(async (req, res) => {
		const chunks = [];
		for await (const chunk of req) chunks.push(chunk);
		const body = Buffer.concat(chunks);
		const pathname = req.url.split('?')[0];
		const isWebhook = pathname.startsWith('/webhook/');
		const webhookId = req.headers['webhook-id'];
		const record = {
			seq: records.length + 1,
			at: Date.now(),
			method: req.method,
			path: pathname,
			webhookId: typeof webhookId === 'string' ? webhookId : undefined,
			target: isWebhook ? 'webhook' : 'main',
			processor: isWebhook ? undefined : 'main',
			status: undefined,
			error: null,
			tried: [],
		};
		records.push(record);

		if (isWebhook && balancer.refuse) {
			record.status = balancer.refuse;
			record.answeredAt = Date.now();
			res.writeHead(balancer.refuse, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: 'Refused by the balancer' }));
			return;
		}
		let outcome;
		if (isWebhook) {
			const ports = webhookPorts();
			let index;
			try {
				index = balancer.route ? balancer.route(req) : undefined;
			} catch (error) {
				log(`balancer.route threw: ${error.message}`);
			}
			if (index === undefined || index === null) {
				index = next % ports.length;
				next += 1;
			}
			for (let attempt = 0; attempt < ports.length; attempt += 1) {
				const current = (index + attempt) % ports.length;
				record.tried.push(current);
				record.processor = current;
				outcome = await forward(ports[current], req, body);
				if (!outcome.error || !balancer.failover || outcome.error.code !== 'ECONNREFUSED') break;
			}
		} else {
			outcome = await forward(mainPort, req, body);
		}

		if (outcome.error) {
			record.status = 502;
			record.answeredAt = Date.now();
			record.error = outcome.error.code || outcome.error.message;
			res.writeHead(502, { 'content-type': 'application/json' });
			res.end(JSON.stringify({ message: `Bad gateway: ${record.error}` }));
			return;
		}
		const { response } = outcome;
		record.status = response.statusCode;
		record.answeredAt = Date.now();
		if (isWebhook && record.webhookId && !firstProcessor.has(record.webhookId)) {
			firstProcessor.set(record.webhookId, record.processor);
		}
		res.writeHead(response.statusCode, response.headers);
		// The start of a webhook's answer, to tell a started delivery from a skipped one.
		if (isWebhook) {
			record.answer = '';
			response.on('data', (chunk) => {
				if (record.answer.length < 200) record.answer = (record.answer + chunk).slice(0, 200);
			});
		}
		response.pipe(res);
		response.on('error', () => res.destroy());
	});
	server.keepAliveTimeout = 1000;
	await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
	balancer.url = `http://127.0.0.1:${server.address().port}`;
	balancer.close = () =>
		new Promise((resolve) => {
			server.closeAllConnections?.();
			server.close(() => resolve());
		});
	return balancer;
}

module.exports = { startBalancer };
