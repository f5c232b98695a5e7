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
		};
	}

	const reset = () => control('POST', '/reset');
	const setFaults = (faults) => control('POST', '/faults', faults);

	const seedBody = (i) => ({ name: `seed #${i}`, type: 'url', payload: { url: `https://example.com/seed/${i}` } });

	/**
	 * Creates `count` codes straight through the API (not through n8n), fast: the rate limit and
	 * latency are lifted meanwhile and put back afterwards. `body(i)` makes the i-th create's body.
	 */
	async function seed(count, { concurrency = 32, body: bodyOf = seedBody } = {}) {
		await control('POST', '/config', { rateLimitPerMinute: 100000000, rateLimitBurst: 100000000 });
		await setFaults({ latencyMs: 0 });
		const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
		const url = new URL(`${sandbox.baseUrl}/qr-codes`);
		let next = 0;
		const post = (i) =>
			new Promise((resolve, reject) => {
				const body = JSON.stringify(bodyOf(i));
				const req = http.request(
					url,
					{
						method: 'POST',
						agent,
						headers: {
							Authorization: `Bearer ${sandbox.keys.readWrite}`,
							'Content-Type': 'application/json',
							'Content-Length': Buffer.byteLength(body),
						},
					},
					(res) => {
						res.resume();
						res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`seed: POST answered ${res.statusCode}`))));
					},
				);
				req.on('error', reject);
				req.setTimeout(30000, () => req.destroy(new Error('seed: request timed out')));
				req.end(body);
			});
		const worker = async () => {
			while (next < count) await post(next++);
		};
		try {
			await Promise.all(Array.from({ length: concurrency }, worker));
		} finally {
			agent.destroy();
			await control('POST', '/config', {
				rateLimitPerMinute: SANDBOX_SETTINGS.rateLimitPerMinute,
				rateLimitBurst: SANDBOX_SETTINGS.rateLimitBurst,
			});
			await setFaults({ latencyMs: SANDBOX_SETTINGS.latencyMs });
		}
	}

	return { sandbox, control, codes, codeCounts, requestCounts, reset, setFaults, seed, close: () => sandbox.close() };
}

module.exports = { start, SANDBOX_SETTINGS };
