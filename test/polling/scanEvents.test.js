'use strict';
// The scan events' poll (polling/scanEvents.ts) through n8n's PollContext against the sandbox:
// what the first poll does, codes created, deleted and re-created between polls, the filters,
// a restart, manual mode, what one poll costs, and no key in what comes out.
const { useScanPolling } = require('../support/scanPolling');

const env = useScanPolling();
const newScans = (extra = {}) => ({ event: 'newScans', ...extra });
const ids = (items) => items.map((item) => item.id);

/** The API requests the sandbox received (method and path with query), from `from` on. */
async function apiRequests(from = 0) {
	const { data } = await env.sandbox.control('GET', '/requests');
	return data
		.slice(from)
		.map((request) => `${request.method} ${request.path}?${new URLSearchParams(request.query)}`);
}

test('the first poll records the counts and emits nothing; later polls emit only what changed', async () => {
	const a = await env.code('A');
	await env.scan(a, 3);
	const setup = env.trigger(newScans());
	expect(await env.poll(setup)).toEqual([]);
	expect(await env.poll(setup)).toEqual([]);
	await env.scan(a, 2);
	const [item] = await env.poll(setup);
	expect(item).toMatchObject({ id: a.id, name: 'A', scans_before: 3, scans_now: 5, new_scans: 2 });
	expect(await env.poll(setup)).toEqual([]);
	expect(Object.keys(env.staticOf(setup))).toEqual(['scanCursor']); // `cursor` untouched
});

test('a code created between polls counts its scans from 0; one deleted is dropped; one re-created under the same name is a new code', async () => {
	const old = await env.code('Poster');
	await env.scan(old, 4);
	const setup = env.trigger(newScans());
	await env.poll(setup);

	const fresh = await env.code('Flyer');
	await env.scan(fresh, 2);
	expect(await env.poll(setup)).toMatchObject([{ id: fresh.id, scans_before: 0, new_scans: 2 }]);

	await env.api('DELETE', `/qr-codes/${old.id}`);
	expect(await env.poll(setup)).toEqual([]);
	expect(env.staticOf(setup).scanCursor.codes).not.toContain(old.id);

	const again = await env.code('Poster');
	expect(await env.poll(setup)).toEqual([]); // re-created, not scanned: nothing, not "4 → 0"
	await env.scan(again, 1);
	expect(await env.poll(setup)).toMatchObject([{ id: again.id, scans_before: 0, scans_now: 1 }]);
});

test('a code that comes into the filters with scans it already had emits nothing for them', async () => {
	const a = await env.code('Summer flyer');
	await env.scan(a, 3);
	await env.sandbox.control('PATCH', `/qr-codes/${a.id}`, { archived: true });
	const setup = env.trigger(newScans({ filters: { archived: false } }));
	await env.poll(setup);
	await env.code('later'); // the newest code seen moves past a's creation
	await env.poll(setup);
	await env.sandbox.control('PATCH', `/qr-codes/${a.id}`, { archived: false });
	expect(await env.poll(setup)).toEqual([]);
	await env.scan(a, 1);
	expect(await env.poll(setup)).toMatchObject([{ id: a.id, scans_before: 3, scans_now: 4 }]);
});

test('Search, Type and Archived narrow the codes watched, as in QR Code › Get Many', async () => {
	const flyer = await env.code('Spring flyer');
	const poster = await env.code('Spring poster');
	const phone = (
		await env.api('POST', '/qr-codes', {
			type: 'phone',
			name: 'Spring hotline',
			payload: { phone: '+14155550100' },
		})
	).data;
	const archived = await env.code('Old flyer');
	await env.sandbox.control('PATCH', `/qr-codes/${archived.id}`, { archived: true });
	const bySearch = env.trigger(newScans({ filters: { search: 'FLYER' } }));
	const byType = env.trigger(newScans({ filters: { type: 'phone' } }));
	const byArchived = env.trigger(newScans({ filters: { archived: true } }));
	for (const setup of [bySearch, byType, byArchived]) await env.poll(setup);
	for (const code of [flyer, poster, phone, archived]) await env.scan(code, 1);
	expect(ids(await env.poll(bySearch)).sort()).toEqual([flyer.id, archived.id].sort());
	expect(ids(await env.poll(byType))).toEqual([phone.id]);
	expect(ids(await env.poll(byArchived))).toEqual([archived.id]);
	const queries = (await apiRequests()).filter((line) => line.startsWith('GET /qr-codes?'));
	expect(queries.some((line) => line.includes('search=FLYER'))).toBe(true);
	expect(queries.some((line) => line.includes('type=phone'))).toBe(true);
	expect(queries.some((line) => line.includes('archived=true'))).toBe(true);
});

test('after a restart (a new workflow object over the saved static data) nothing is emitted twice', async () => {
	const a = await env.code('A');
	const setup = env.trigger(newScans());
	await env.poll(setup);
	await env.scan(a, 2);
	expect(await env.poll(setup)).toHaveLength(1);
	const restarted = env.restart(setup);
	expect(await env.poll(restarted)).toEqual([]);
	await env.scan(a, 1);
	expect(await env.poll(restarted)).toMatchObject([{ scans_before: 2, scans_now: 3 }]);
});

test('polls over 250 codes: page 1 each time, and the sweep from page 2 on as far as the share allows; no API key comes out', async () => {
	for (let i = 0; i < 250; i++) await env.code(`c${i}`);
	const setup = env.trigger(newScans());
	await env.poll(setup);
	const before = (await apiRequests()).length;
	const codes = (await env.api('GET', '/qr-codes?per_page=3')).data;
	await env.scan(codes[0], 1);
	const mark = (await apiRequests()).length;
	expect(mark).toBe(before + 1);
	// The first poll knew no interval: page 1 and one more. Polled again at once, page 1 and the
	// next page, the list's last: that sweep ends.
	const items = await env.poll(setup);
	expect(items).toHaveLength(1);
	const page = (n) => `GET /qr-codes?page=${n}&per_page=100`;
	expect(await apiRequests(mark)).toEqual([page(1), page(3)]);
	// A minute later the share (half of the sandbox's 6,000 a minute) holds the whole list.
	env.advanceDays(1 / 1440);
	const next = (await apiRequests()).length;
	expect(await env.poll(setup)).toEqual([]);
	expect(await apiRequests(next)).toEqual([page(1), page(2), page(3)]);
	const output = JSON.stringify([items, setup.workflow.staticData]);
	for (const key of Object.values(env.sandbox.keys)) expect(output).not.toContain(key);
});

test('manual "Fetch Test Event" shows the code scanned last and leaves the cursor alone', async () => {
	const setup = env.trigger(newScans());
	await expect(env.poll(setup, { mode: 'manual' })).rejects.toThrow(
		'No QR code matches the filters',
	);
	const a = await env.code('A');
	const b = await env.code('B');
	await expect(env.poll(setup, { mode: 'manual' })).rejects.toThrow(
		'No QR code has been scanned yet',
	);
	// A minute apart: scans sent one after another can share a millisecond, and then neither
	// code was scanned last.
	await env.scan(b, 2, new Date(Date.now() - 60000).toISOString());
	await env.scan(a, 1);
	expect(await env.poll(setup, { mode: 'manual' })).toMatchObject([
		{ id: a.id, scans_before: 0, scans_now: 1, new_scans: 1 },
	]);
	expect(setup.workflow.staticData).toEqual({});
});

test('a restart from the static data n8n stored (at activation and at each poll that emitted) repeats nothing', async () => {
	// n8n saves a polling trigger's static data only then; polls that emit nothing are lost on a
	// restart. Each event is restarted from its last stored state after quiet polls.
	const a = await env.code('A');
	const events = [
		{ event: 'newScans' },
		{ event: 'scanMilestone', milestones: '2, 4' },
		{ event: 'quietCode', quietDays: 1 },
	];
	const setups = events.map((parameters) => env.trigger(parameters));
	const stored = [];
	const store = (i) => (stored[i] = JSON.parse(JSON.stringify(setups[i].workflow.staticData)));
	for (let i = 0; i < setups.length; i++) {
		await env.poll(setups[i]);
		store(i);
	}
	await env.scan(a, 2);
	env.advanceDays(1.5); // a goes quiet, after its 2 scans
	const first = [];
	for (let i = 0; i < setups.length; i++) {
		first.push(await env.poll(setups[i]));
		if (first[i].length) store(i);
	}
	expect(first.map((items) => items.length)).toEqual([1, 1, 1]);
	await env.scan(a, 1); // 3: a new scan, no milestone; the polls emit nothing (New Scans: 1)
	for (let i = 0; i < setups.length; i++) {
		const items = await env.poll(setups[i]);
		if (items.length) store(i);
	}
	for (let i = 0; i < setups.length; i++) {
		const restarted = env.trigger(events[i], JSON.parse(JSON.stringify(stored[i])));
		expect([events[i].event, await env.poll(restarted)]).toEqual([events[i].event, []]);
	}
});
