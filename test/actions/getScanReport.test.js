'use strict';
/**
 * QR Code › Get Scan Report through n8n's engine against the sandbox: the periods in the
 * workflow's time zone, the previous period and the change, which codes cost a `/scans` request,
 * codes by IDs and by filters, both outputs, bad input stopped before any request, the readings of
 * the scans per day.
 */
const { useSandbox, jsonOf } = require('../support/action-sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');

const ctx = useSandbox();

const DAY_MS = 24 * 60 * 60 * 1000;
const addDays = (day, count) =>
	new Date(Date.parse(`${day}T00:00:00Z`) + count * DAY_MS).toISOString().slice(0, 10);
/** Today's date in a time zone, read independently of the node (en-CA writes YYYY-MM-DD). */
const todayIn = (timeZone) =>
	new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' })
		.format(new Date())
		.slice(0, 10);

let counter = 0;
/** A URL code named `<prefix> <n>`, made straight through the API. */
async function makeCode(prefix) {
	counter += 1;
	const created = await sandboxClient(ctx.sandbox).call('POST', '/qr-codes', {
		name: `${prefix} ${counter}`,
		type: 'url',
		payload: { url: `https://example.com/${counter}` },
	});
	return created.data;
}
/** `count` scans of the code at noon UTC of `day`. */
async function scan(id, day, count = 1, details = {}) {
	for (let i = 0; i < count; i++)
		await ctx.control('POST', '/scans', {
			qr_code_id: id,
			scanned_at: `${day}T12:00:00Z`,
			...details,
		});
}

/** Sets the code's `created_at` (the API cannot) to noon UTC of `day`. */
const backdate = (code, day) =>
	ctx.control('PATCH', `/qr-codes/${code.id}`, { created_at: `${day}T12:00:00Z` });

const report = (parameters) => ({ resource: 'qrCode', operation: 'getScanReport', ...parameters });

/** Runs the report and answers its output and the `/scans` requests it sent. */
async function runReport(parameters, options = {}) {
	const before = (await ctx.requests()).length;
	const result = await ctx.run(report(parameters), { timezone: 'UTC', ...options });
	const requests = (await ctx.requests()).slice(before);
	return {
		...result,
		json: jsonOf(result.items),
		requests,
		scansRequests: requests.filter((request) => request.path.endsWith('/scans')),
	};
}

const today = () => todayIn('UTC');

describe('by IDs, one item per code', () => {
	let active;
	let never;
	let old;
	let previousOnly;
	beforeAll(async () => {
		[active, never, old, previousOnly] = await Promise.all([
			makeCode('Ids'),
			makeCode('Ids'),
			makeCode('Ids'),
			makeCode('Ids'),
		]);
		const t = today();
		// Made long before their scans, as real codes are.
		for (const code of [active, never, old, previousOnly]) await backdate(code, addDays(t, -60));
		await scan(active.id, addDays(t, -1), 2);
		await scan(active.id, addDays(t, -7));
		await scan(active.id, addDays(t, -10), 2); // the previous period
		await scan(active.id, t, 5); // today: not in Last 7 Days
		await scan(old.id, addDays(t, -40));
		await scan(previousOnly.id, addDays(t, -9));
	});

	test('Last 7 Days: the scans, the previous period, the change; only scanned codes cost /scans', async () => {
		const t = today();
		const { json, error, scansRequests, requests } = await runReport({
			codesBy: 'ids',
			qrCodeIds: [active.id, never.id, old.id, previousOnly.id].join(', '),
			period: 'last7Days',
			reportOutput: 'perCode',
		});
		expect(error).toBeUndefined();
		const period = { period: 'last7Days', from: addDays(t, -7), to: addDays(t, -1) };
		expect(json).toEqual([
			{
				id: active.id,
				name: active.name,
				type: 'url',
				short_url: active.short_url,
				...period,
				scans: 3,
				previous_scans: 2,
				change: 1,
				change_percent: 50,
			},
			expect.objectContaining({
				id: never.id,
				scans: 0,
				previous_scans: 0,
				change: 0,
				change_percent: null,
			}),
			expect.objectContaining({ id: old.id, scans: 0, previous_scans: 0, change_percent: null }),
			expect.objectContaining({
				id: previousOnly.id,
				scans: 0,
				previous_scans: 1,
				change: -1,
				change_percent: -100,
			}),
		]);
		// One read per ID, one /scans per code scanned since the previous period began: the active
		// code over both periods, the other over the previous period only.
		expect(requests.filter((request) => !request.path.endsWith('/scans'))).toHaveLength(4);
		expect(scansRequests.map((request) => [request.path, request.query])).toEqual(
			expect.arrayContaining([
				[`/qr-codes/${active.id}/scans`, { from: addDays(t, -14), to: addDays(t, -1) }],
				[`/qr-codes/${previousOnly.id}/scans`, { from: addDays(t, -14), to: addDays(t, -8) }],
			]),
		);
		expect(scansRequests).toHaveLength(2);
	});

	test("a code made and last scanned within one period costs no /scans: its lifetime count is that period's", async () => {
		const t = today();
		const [fresh, lastWeek] = [await makeCode('Ids'), await makeCode('Ids')];
		await backdate(fresh, addDays(t, -6));
		await scan(fresh.id, addDays(t, -5), 3);
		await scan(fresh.id, addDays(t, -2));
		await backdate(lastWeek, addDays(t, -13));
		await scan(lastWeek.id, addDays(t, -12), 2);
		const reportOn = (reportOutput) =>
			runReport({
				codesBy: 'ids',
				qrCodeIds: [fresh.id, lastWeek.id].join(', '),
				period: 'last7Days',
				reportOutput,
			});
		const perCode = await reportOn('perCode');
		expect(perCode.error).toBeUndefined();
		expect(perCode.json.map((row) => [row.id, row.scans, row.previous_scans])).toEqual([
			[fresh.id, 4, 0],
			[lastWeek.id, 0, 2],
		]);
		expect(perCode.scansRequests).toEqual([]);
		// The summary's breakdowns of the period still come from /scans, for the code scanned in it.
		const summary = await reportOn('summary');
		expect(summary.error).toBeUndefined();
		expect(summary.json[0]).toMatchObject({ scans: 4, previous_scans: 2 });
		expect(summary.scansRequests.map((request) => request.path)).toEqual([
			`/qr-codes/${fresh.id}/scans`,
		]);
	});

	test('the IDs may come as a list from an expression; repeated IDs count once', async () => {
		const { json, error } = await runReport(
			{
				codesBy: 'ids',
				qrCodeIds: '={{ $json.ids }}',
				period: 'yesterday',
				reportOutput: 'perCode',
			},
			{ items: [{ json: { ids: [active.id, previousOnly.id, active.id] } }] },
		);
		expect(error).toBeUndefined();
		expect(json.map((row) => [row.id, row.scans])).toEqual([
			[active.id, 2],
			[previousOnly.id, 0],
		]);
	});

	test('a bad ID or From after To fails the item before any request, naming the field', async () => {
		const badId = await runReport({
			codesBy: 'ids',
			qrCodeIds: `${active.id}, not an id`,
			period: 'last7Days',
		});
		expect(badId.error.message).toMatch(/QR Code IDs/);
		expect(badId.error.message).toMatch(/item 0/);
		expect(badId.requests).toEqual([]);

		const backwards = await runReport({
			codesBy: 'ids',
			qrCodeIds: active.id,
			period: 'custom',
			from: '2030-05-10',
			to: '2030-05-01',
		});
		expect(backwards.error.message).toMatch(/"From"/);
		expect(backwards.error.message).toMatch(/no later than To \(2030-05-01\)/);
		expect(backwards.requests).toEqual([]);
	});

	test.each([['scans-days-count'], ['scans-days-map']])(
		'reading "%s": the days are read in its shape',
		async (reading) => {
			await ctx.control('PUT', '/readings', { names: [reading] });
			try {
				const { json, error } = await runReport({
					codesBy: 'ids',
					qrCodeIds: active.id,
					period: 'last7Days',
					reportOutput: 'perCode',
				});
				expect(error).toBeUndefined();
				expect(json[0]).toMatchObject({ scans: 3, previous_scans: 2, change_percent: 50 });
			} finally {
				await ctx.control('PUT', '/readings', { names: [] });
			}
		},
	);
});

describe('by filters, one summary item', () => {
	let top;
	let second;
	beforeAll(async () => {
		top = await makeCode('Summary');
		second = await makeCode('Summary');
		await makeCode('Summary'); // never scanned
		await makeCode('Other'); // not found by the filter
		const t = today();
		await scan(top.id, addDays(t, -2), 3, { country: 'DE', device: 'mobile' });
		await scan(top.id, addDays(t, -3), 1, { country: 'FR', device: 'desktop' });
		await scan(top.id, addDays(t, -9), 4, { country: 'JP' }); // the previous period
		await scan(second.id, addDays(t, -1), 1, { country: 'FR', device: 'mobile' });
	});

	test('totals, the codes with most scans first and the period’s top values', async () => {
		const t = today();
		const { json, error, scansRequests } = await runReport({
			codesBy: 'filters',
			filters: { search: 'Summary' },
			period: 'last7Days',
			reportOutput: 'summary',
		});
		expect(error).toBeUndefined();
		expect(json).toHaveLength(1);
		const [summary] = json;
		expect(summary).toMatchObject({
			period: 'last7Days',
			from: addDays(t, -7),
			to: addDays(t, -1),
			previous_from: addDays(t, -14),
			previous_to: addDays(t, -8),
			codes: 3,
			scans: 5,
			previous_scans: 4,
			change: 1,
			change_percent: 25,
		});
		expect(summary.per_code.map((code) => [code.id, code.scans, code.previous_scans])).toEqual([
			[top.id, 4, 4],
			[second.id, 1, 0],
			[expect.any(String), 0, 0],
		]);
		expect(summary.per_code[1].change_percent).toBeNull();
		// Top values of the period alone: the previous period's JP scans are not in them.
		expect(summary.top.country).toEqual([
			{ value: 'DE', scans: 3 },
			{ value: 'FR', scans: 2 },
		]);
		expect(summary.top.device).toEqual([
			{ value: 'mobile', scans: 4 },
			{ value: 'desktop', scans: 1 },
		]);
		expect(Object.keys(summary.top)).toEqual([
			'country',
			'city',
			'device',
			'system',
			'browser',
			'language',
			'origin',
		]);
		// The code scanned in both periods: both periods, then the period alone for its top values;
		// the code scanned in the period only: one request; the code never scanned: none.
		expect(scansRequests.map((request) => [request.path, request.query])).toEqual(
			expect.arrayContaining([
				[`/qr-codes/${top.id}/scans`, { from: addDays(t, -14), to: addDays(t, -1) }],
				[`/qr-codes/${top.id}/scans`, { from: addDays(t, -7), to: addDays(t, -1) }],
				[`/qr-codes/${second.id}/scans`, { from: addDays(t, -14), to: addDays(t, -1) }],
			]),
		);
		expect(scansRequests).toHaveLength(3);
	});
});

describe('periods', () => {
	let code;
	beforeAll(async () => {
		code = await makeCode('Periods');
		const t = today();
		for (const back of [1, 2, 20, 29, 31, 45, 70]) await scan(code.id, addDays(t, -back));
		await scan(code.id, t);
	});

	const monthStart = (day) => `${day.slice(0, 7)}-01`;
	const expected = {
		yesterday: (t) => [addDays(t, -1), addDays(t, -1)],
		last30Days: (t) => [addDays(t, -30), addDays(t, -1)],
		thisMonth: (t) => [monthStart(t), t],
		lastMonth: (t) => [monthStart(addDays(monthStart(t), -1)), addDays(monthStart(t), -1)],
	};
	const days = (from, to) => (Date.parse(to) - Date.parse(from)) / DAY_MS + 1;
	/** The code's scans on the days from..to, as placed above. */
	const scansIn = (t, from, to) =>
		[0, 1, 2, 20, 29, 31, 45, 70]
			.map((back) => addDays(t, -back))
			.filter((day) => day >= from && day <= to).length;

	test.each(Object.keys(expected))('%s', async (period) => {
		const t = today();
		const [from, to] = expected[period](t);
		const previousTo = addDays(from, -1);
		const previousFrom = addDays(previousTo, -(days(from, to) - 1));
		const { json, error } = await runReport({
			codesBy: 'ids',
			qrCodeIds: code.id,
			period,
			reportOutput: 'summary',
		});
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({
			from,
			to,
			previous_from: previousFrom,
			previous_to: previousTo,
			scans: scansIn(t, from, to),
			previous_scans: scansIn(t, previousFrom, previousTo),
		});
	});

	test('From/To: the dates of the values given, the previous period of the same length', async () => {
		const t = today();
		const { json, error } = await runReport({
			codesBy: 'ids',
			qrCodeIds: code.id,
			period: 'custom',
			from: `${addDays(t, -29)}T00:00:00`,
			to: addDays(t, -20),
			reportOutput: 'perCode',
		});
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({
			period: 'custom',
			from: addDays(t, -29),
			to: addDays(t, -20),
			scans: 2, // 29 and 20 days ago
			previous_scans: 1, // 39 to 30 days ago: 31 days ago
		});
	});

	test("the days follow the workflow's time zone, where the date differs from UTC", async () => {
		// Kiritimati is UTC+14 and Pago Pago UTC−11: at any moment one of them is on another date.
		const zone = new Date().getUTCHours() >= 10 ? 'Pacific/Kiritimati' : 'Pacific/Pago_Pago';
		const local = todayIn(zone);
		expect(local).not.toBe(today());
		const { json, error } = await runReport(
			{ codesBy: 'ids', qrCodeIds: code.id, period: 'yesterday', reportOutput: 'summary' },
			{ timezone: zone },
		);
		expect(error).toBeUndefined();
		expect(json[0]).toMatchObject({
			from: addDays(local, -1),
			to: addDays(local, -1),
			previous_from: addDays(local, -2),
			scans: scansIn(today(), addDays(local, -1), addDays(local, -1)),
		});
	});
});

test('a From/To longer than the service takes in one /scans (the sandbox: 366 days) is asked in halves, and adds up', async () => {
	const long = await makeCode('Long');
	const t = today();
	await scan(long.id, addDays(t, -10), 2, { country: 'DE' });
	await scan(long.id, addDays(t, -300), 1, { country: 'FR' });
	await scan(long.id, addDays(t, -500), 3, { country: 'JP' }); // the previous period
	const other = await makeCode('Long');
	await scan(other.id, addDays(t, -20), 1, { country: 'NL' });
	await scan(other.id, addDays(t, -420), 1, { country: 'NL' });
	const from = addDays(t, -400);
	const to = addDays(t, -1);
	const { json, error, scansRequests } = await runReport({
		codesBy: 'ids',
		qrCodeIds: [long.id, other.id],
		period: 'custom',
		from,
		to,
		reportOutput: 'summary',
	});
	expect(error).toBeUndefined();
	expect(json[0]).toMatchObject({ from, to, scans: 4, previous_scans: 4 });
	expect(json[0].top.country).toEqual([
		{ value: 'DE', scans: 2 },
		{ value: 'FR', scans: 1 },
		{ value: 'NL', scans: 1 },
	]);
	// Both periods (800 days) refused, each half (400) refused, its halves (200) answered; once a
	// range was refused, the run splits every range as long before asking (the breakdowns' 400
	// days, and the codes that start after the first refusals).
	const days = (request) =>
		(Date.parse(request.query.to) - Date.parse(request.query.from)) / DAY_MS + 1;
	for (const qrCode of [long, other]) {
		const requests = scansRequests
			.filter((request) => request.path.includes(qrCode.id))
			.map((request) => [days(request), request.status]);
		expect(requests.filter(([, status]) => status === 200)).toEqual(
			Array.from({ length: 6 }, () => [200, 200]),
		);
		expect([
			[],
			[
				[800, 422],
				[400, 422],
			],
		]).toContainEqual(requests.filter(([, status]) => status !== 200));
	}
});

test('no output or error holds an API key', () => {
	ctx.expectNoKeyLeak();
});
