'use strict';
/**
 * The sandbox for the bench (dev/sandbox, in this process), with the numbers the cases read:
 * codes created (and duplicates), and what the API saw (requests, 429s, dropped answers).
 */
const http = require('node:http');
const { startSandbox } = require('../../dev/sandbox');

/**
 * Rate limit 3,000 per minute (50 a second). The bucket holds one second's worth (50): with
 * the sandbox's default (a minute's worth, 3,000) all 1,000 creates would fit in the burst
 * and the limit would never bind. With 50, no client can create 1,000 codes in less than
 * (1,000 − 50) ÷ 50 = 19 s; the floor is 1,000 ÷ 50 = 20 s.
 */
const SANDBOX_SETTINGS = { rateLimitPerMinute: 3000, rateLimitBurst: 50, latencyMs: 50 };

async function start() {
	const sandbox = await startSandbox({ port: 0, ...SANDBOX_SETTINGS });
	const control = sandbox.control;

	/** Every live code of the Pro workspace (the one the readWrite key belongs to). */
	async function codes() {
		const { data } = await control('GET', '/qr-codes');
		return data.filter((code) => !code.deleted);
	}

	/** { codes, distinct, duplicates }: duplicates = codes beyond one per item name. */
	async function codeCounts() {
		const list = await codes();
		const names = new Set(list.map((code) => code.name));
		return { codes: list.length, distinct: names.size, duplicates: list.length - names.size };
	}

	/** What the API saw since the last reset. */
	async function requestCounts() {
		const { data } = await control('GET', '/requests');
		const creates = data.filter((r) => r.method === 'POST' && r.path === '/qr-codes');
		return {
			total: data.length,
			creates: creates.length,
			status429: data.filter((r) => r.status === 429).length,
			dropped: data.filter((r) => r.status === null).length,
			created201: creates.filter((r) => r.status === 201).length,
			maxInFlight: data.reduce((max, r) => Math.max(max, r.in_flight ?? 0), 0),
		};
	}

	const reset = () => control('POST', '/reset');
	const setFaults = (faults) => control('POST', '/faults', faults);

	const seedBody = (i) => ({ name: `seed #${i}`, type: 'url', payload: { url: `https://example.com/seed/${i}` } });

	/** Runs `task(i)` for i = 0 … count − 1, `concurrency` at a time. */
	async function pool(count, concurrency, task) {
		let next = 0;
		const worker = async () => {
			while (next < count) await task(next++);
		};
		await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
	}

	/** Lifts the rate limit and latency while `work` runs, and puts the bench's back afterwards. */
	async function unlimited(work) {
		await control('POST', '/config', { rateLimitPerMinute: 100000000, rateLimitBurst: 100000000 });
		await setFaults({ latencyMs: 0 });
		try {
			return await work();
		} finally {
			await setPlan(SANDBOX_SETTINGS.rateLimitPerMinute, SANDBOX_SETTINGS.rateLimitBurst);
			await setFaults({ latencyMs: SANDBOX_SETTINGS.latencyMs });
		}
	}

	const setPlan = (rateLimitPerMinute, rateLimitBurst) => control('POST', '/config', { rateLimitPerMinute, rateLimitBurst });

	/** POSTs `body(i)` to the API path `count` times over kept-alive sockets; every answer must be 201. */
	async function postMany(apiPath, count, body, concurrency) {
		const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
		const url = new URL(`${sandbox.baseUrl}${apiPath}`);
		const post = (i) =>
			new Promise((resolve, reject) => {
				const json = JSON.stringify(body(i));
				const req = http.request(
					url,
					{
						method: 'POST',
						agent,
						headers: {
							Authorization: `Bearer ${sandbox.keys.readWrite}`,
							'Content-Type': 'application/json',
							'Content-Length': Buffer.byteLength(json),
						},
					},
					(res) => {
						res.resume();
						res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`seed: POST ${apiPath} answered ${res.statusCode}`))));
					},
				);
				req.on('error', reject);
				req.setTimeout(30000, () => req.destroy(new Error('seed: request timed out')));
				req.end(json);
			});
		try {
			await pool(count, concurrency, post);
		} finally {
			agent.destroy();
		}
	}

	/**
	 * Creates `count` codes straight through the API (not through n8n), fast: the rate limit and
	 * latency are lifted meanwhile and put back afterwards. `body(i)` makes the i-th create's body.
	 */
	const seed = (count, { concurrency = 32, body = seedBody } = {}) =>
		unlimited(() => postMany('/qr-codes', count, body, concurrency));

	/** `count` leads on the sandbox's card, through the control API (the way visitors share them). */
	const seedLeads = (count, { concurrency = 32 } = {}) =>
		pool(count, concurrency, (i) => control('POST', '/leads', { name: `lead #${i}`, email: `lead${i}@example.com` }));

	/** `count` webhook endpoints straight through the API, the rate limit lifted meanwhile. */
	const seedEndpoints = (count, { concurrency = 32 } = {}) =>
		unlimited(() =>
			postMany('/webhooks', count, (i) => ({ url: `https://hooks.example.com/bench/${i}`, events: ['scan.created'] }), concurrency),
		);

	return { sandbox, control, codes, codeCounts, requestCounts, reset, setFaults, setPlan, seed, seedLeads, seedEndpoints, close: () => sandbox.close() };
}

module.exports = { start, SANDBOX_SETTINGS };
