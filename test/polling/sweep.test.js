'use strict';
// Scan polls at scale (polling/share.ts, polling/sweep.ts) through n8n's PollContext against the
// sandbox: 10,000 codes, a plan of 60 requests a minute, n8n's 36-second poll budget (its durable
// scheduler's), a poll every 30 seconds of the sandbox's clock, codes scanned, created and deleted
// anywhere in the list while the polls sweep it.
const { sandboxClient } = require('../support/sandbox');
const { busiestMinute, useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();
jest.setTimeout(10 * 60 * 1000);

const CODES = 10000;
const PLAN = 60;
const BUDGET_MS = 36000;
const INTERVAL_MS = 30000;

async function seed(count) {
	let next = 0;
	const worker = async () => {
		while (next < count) {
			const i = next++;
			await env.api('POST', '/qr-codes', {
				type: 'url',
				name: `seed ${i}`,
				payload: { url: `https://example.com/${i}` },
			});
		}
	};
	await Promise.all(Array.from({ length: 32 }, worker));
}

test('10,000 codes at 60 requests a minute: no poll fails, half the plan is kept, and every scan made anywhere in the list from activation on is reported once', async () => {
	const config = await env.sandbox.control('GET', '/config');
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: 1e9 }); // seeding only
	await seed(CODES);
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: PLAN });
	const listed = (await env.sandbox.control('GET', '/qr-codes')).data.filter(
		(code) => !code.deleted,
	);
	// Newest first, as the API lists them: positions 0 … 9,999.
	const codes = [...listed].reverse();
	const setup = env.trigger({ event: 'newScans' });
	const cursorOf = () => env.staticOf(setup).scanCursor;
	const pollOnce = async () => {
		env.shiftMs += INTERVAL_MS;
		return await env.poll(setup, { budgetMs: BUDGET_MS });
	};
	const requestsFrom = (await env.sandbox.control('GET', '/requests')).data.length;

	const made = new Map();
	const scan = async (code, times) => {
		await env.scan(code, times);
		made.set(code.id, (made.get(code.id) ?? 0) + times);
	};
	const reported = new Map();
	const lowerBounds = [];
	const report = (item) => {
		reported.set(item.id, (reported.get(item.id) ?? 0) + item.new_scans);
		expect(item.scans_now - item.scans_before).toBe(item.new_scans);
		if (item.lower_bound) lowerBounds.push(item.id);
	};

	// Activation: the first sweep records every code's count. Right after activation, 40 codes
	// spread over the list are scanned once: those it has passed are counted in the next sweep;
	// those it has not reached are reported when it reaches them (scanned since activation).
	expect(await pollOnce()).toEqual([]);
	let polls = 1;
	for (let i = 0; i < 40; i++) await scan(codes[Math.floor(((i + 0.5) / 40) * CODES)], 1);
	do {
		(await pollOnce()).forEach(report);
		polls++;
	} while (cursorOf().sweep);
	const activationPolls = polls;
	expect(cursorOf().codes.split(';')).toHaveLength(CODES);
	// Most of the 40 lie beyond what the first poll read: reported as lower bounds, exact here.
	expect(lowerBounds.length).toBeGreaterThan(30);

	// Two sweeps more; scans, creations and deletions anywhere in the list meanwhile.
	const deleted = new Set();
	const created = [];
	for (let round = 0; round < 2 * activationPolls + 2; round++) {
		const at = (fraction) => codes[Math.floor(fraction * (codes.length - 1))];
		await scan(at((round * 0.137) % 1), 1 + (round % 3));
		await scan(at(1 - ((round * 0.071) % 1)), 2);
		if (round % 3 === 0) {
			const gone = at((round * 0.31 + 0.2) % 1);
			if (!deleted.has(gone.id) && !made.has(gone.id)) {
				await env.api('DELETE', `/qr-codes/${gone.id}`);
				deleted.add(gone.id);
			}
		}
		if (round % 4 === 1) {
			const fresh = await env.code(`new ${round}`);
			created.push(fresh);
			await scan(fresh, 1);
		}
		(await pollOnce()).forEach(report);
		polls++;
	}
	// The sweep under way may have passed a code before its last scan: it ends, and one whole
	// sweep after it reads every code again. Then every scan made is reported, each once.
	for (let sweeps = 0; sweeps < 2; sweeps++) {
		do {
			(await pollOnce()).forEach(report);
			polls++;
		} while (cursorOf().sweep);
	}
	expect(new Map([...reported].sort())).toEqual(new Map([...made].sort()));
	expect(created.every((code) => made.get(code.id) === reported.get(code.id))).toBe(true);

	// The deleted codes left the cursor; the created ones joined it.
	const packed = cursorOf().codes;
	for (const id of deleted) expect(packed).not.toContain(id);
	expect(packed.split(';')).toHaveLength(CODES - deleted.size + created.length);

	const requests = (await env.sandbox.control('GET', '/requests')).data.slice(requestsFrom);
	const reads = requests.filter((request) => request.method === 'GET');
	expect(reads.filter((request) => request.status === 429)).toEqual([]);
	const most = busiestMinute(reads.map((request) => Date.parse(request.at)));
	process.stdout.write(
		`scan poll at scale: ${CODES} codes, ${PLAN}/min, a poll every ${INTERVAL_MS / 1000} s: ` +
			`a sweep in ${activationPolls} polls, ${reads.length} reads in ${polls} polls, ` +
			`busiest minute ${most} requests, cursor ${Buffer.byteLength(JSON.stringify(cursorOf()))} bytes\n`,
	);
	// Half of a plan of 60, for polls 30 seconds apart: 15 a poll, 30 in any minute.
	expect(most).toBeLessThanOrEqual(PLAN / 2);
	await env.sandbox.control('POST', '/config', config);
});

test('the plan told only by X-RateLimit-Remaining (reading "rate-limit-remaining-only") is learnt; Plan Requests per Minute, when set, wins', async () => {
	const config = await env.sandbox.control('GET', '/config');
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: 1e9 });
	await seed(3000); // 30 pages: more than a poll reads
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: PLAN });
	await env.sandbox.control('PUT', '/readings', { names: ['rate-limit-remaining-only'] });
	const readsPerPoll = async (parameters, polls) => {
		const setup = env.trigger({ event: 'newScans', ...parameters });
		const counts = [];
		for (let i = 0; i < polls; i++) {
			env.shiftMs += INTERVAL_MS; // the bucket refills meanwhile
			const from = (await env.sandbox.control('GET', '/requests')).data.length;
			await env.poll(setup, { budgetMs: BUDGET_MS });
			const requests = (await env.sandbox.control('GET', '/requests')).data.slice(from);
			expect(requests.every((request) => request.status === 200)).toBe(true);
			counts.push(requests.length);
		}
		return { counts, cursor: env.staticOf(setup).scanCursor };
	};
	try {
		const probe = await sandboxClient(env.sandbox).get('/qr-codes?per_page=1');
		expect(probe.headers['x-ratelimit-remaining']).toBeDefined();
		expect(probe.headers['x-ratelimit-limit']).toBeUndefined();
		env.shiftMs += 60000;
		const learnt = await readsPerPoll({}, 3);
		// A full bucket of 60 shows 59 left after the first request: the plan is 60.
		expect(learnt.cursor.learntLimit).toBe(PLAN);
		// The first poll knows no interval (page 1 and one more); then half of 60 for 30 s.
		expect(learnt.counts).toEqual([2, 15, 15]);
		const set = await readsPerPoll({ planRequestsPerMinute: 20 }, 3);
		expect(set.counts).toEqual([2, 5, 5]);
	} finally {
		await env.sandbox.control('PUT', '/readings', { names: [] });
		await env.sandbox.control('POST', '/config', config);
	}
});

test('Include Breakdown over a sweep of several polls: the days asked for start where the code was last read, so a scan made since is in them', async () => {
	const config = await env.sandbox.control('GET', '/config');
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: 1e9 });
	await seed(300); // three pages
	await env.sandbox.control('POST', '/config', config);
	// Half of 4 a minute: page 1 and one more a poll, so a sweep takes two polls.
	const setup = env.trigger({
		event: 'newScans',
		includeBreakdown: true,
		planRequestsPerMinute: 4,
	});
	const oldest = (await env.api('GET', '/qr-codes?page=3&per_page=100')).data.at(-1);
	const DAY_MS = 24 * 60 * 60 * 1000;
	const pollDayLater = async () => {
		env.shiftMs += DAY_MS;
		return await env.poll(setup);
	};
	expect(await pollDayLater()).toEqual([]); // pages 1, 2
	expect(await pollDayLater()).toEqual([]); // pages 1, 3: the oldest code read, the sweep ends
	env.shiftMs += DAY_MS / 2;
	const scannedDay = new Date(Date.now()).toISOString().slice(0, 10);
	await env.scan(oldest, 1);
	expect(await pollDayLater()).toEqual([]); // pages 1, 2
	const from = (await env.sandbox.control('GET', '/requests')).data.length;
	const [item] = await pollDayLater(); // pages 1, 3
	expect(item).toMatchObject({ id: oldest.id, new_scans: 1 });
	const [asked] = (await env.sandbox.control('GET', '/requests')).data
		.slice(from)
		.filter((request) => request.path.endsWith('/scans'));
	expect(asked.query.from <= scannedDay).toBe(true);
	expect(item.breakdown).toBeDefined();
	expect(JSON.stringify(item.breakdown)).toContain(scannedDay);
});

test('150 codes deleted behind the sweep mid-way: the sweep steps back, and a scan on the code that moved up past its page is reported in that sweep, once', async () => {
	const config = await env.sandbox.control('GET', '/config');
	await env.sandbox.control('POST', '/config', { rateLimitPerMinute: 1e9 });
	await seed(1000); // ten pages
	await env.sandbox.control('POST', '/config', config);
	// Half of 10 a minute: page 1 and four more a poll.
	const setup = env.trigger({ event: 'newScans', planRequestsPerMinute: 10 });
	const cursorOf = () => env.staticOf(setup).scanCursor;
	const reported = [];
	const pollMinuteLater = async () => {
		env.shiftMs += 60000;
		reported.push(...(await env.poll(setup)));
	};
	do await pollMinuteLater();
	while (cursorOf().sweep); // activation
	await pollMinuteLater(); // pages 1 to 5 of the next sweep
	expect(cursorOf().sweep).toMatchObject({ page: 6 });
	const list = [];
	for (let page = 1; page <= 10; page++) {
		list.push(...(await env.api('GET', `/qr-codes?page=${page}&per_page=100`)).data);
	}
	const target = list[500]; // first on page 6, not read by this sweep yet
	await env.scan(target, 1);
	for (const code of list.slice(300, 450)) await env.api('DELETE', `/qr-codes/${code.id}`);
	// The target is on page 4 now, behind where the sweep goes on.
	do await pollMinuteLater();
	while (cursorOf().sweep);
	expect(reported).toMatchObject([{ id: target.id, new_scans: 1 }]);
	// Codes this sweep had read before they were deleted leave at the end of the next one.
	do await pollMinuteLater();
	while (cursorOf().sweep);
	expect(reported).toHaveLength(1);
	expect(cursorOf().codes.split(';')).toHaveLength(850);
});
