'use strict';
/**
 * QR Code › Create or Update through n8n-core's engine against the sandbox: matching by name and
 * by an ID in the data, writes only for what differs, one list read per run, and what the API saw.
 */
const { useSandbox, jsonOf } = require('../support/action-sandbox');

const ctx = useSandbox();

afterAll(() => ctx.expectNoKeyLeak());

beforeEach(async () => {
	await ctx.control('POST', '/reset');
});

/** Name, Type and payload from each row: `{ name, type, payload }`, as a sheet of mixed types. */
const FROM_ROWS = {
	resource: 'qrCode',
	operation: 'upsert',
	name: '={{ $json.name }}',
	type: '={{ $json.type }}',
	payloadInput: 'json',
	payloadJson: '={{ JSON.stringify($json.payload) }}',
};

const ROWS = [
	{ name: 'Website', type: 'url', payload: { url: 'https://example.com' } },
	{ name: 'Chat', type: 'whatsapp', payload: { phone: '+14155550123', message: 'Hello!' } },
	{ name: 'Party', type: 'event', payload: { title: 'Party', starts_at: '2030-05-01T18:00:00Z' } },
];

const upsert = (rows, { parameters = {}, ...options } = {}) =>
	ctx.run({ ...FROM_ROWS, ...parameters }, { items: rows.map((json) => ({ json })), ...options });

/** What the API saw since the last reset, as "METHOD path" lines; list pages as one line each. */
const seen = async () => (await ctx.requests()).map((r) => `${r.method} ${r.path}`);
const writes = async () => (await seen()).filter((line) => !line.startsWith('GET'));
/** What the API sees from now on: the log's entries after its current length. */
async function mark() {
	const count = (await ctx.requests()).length;
	return async () => (await ctx.requests()).slice(count).map((r) => `${r.method} ${r.path}`);
}

const results = (items) => jsonOf(items).map((json) => [json.name, json.createOrUpdate]);

describe('QR Code › Create or Update', () => {
	test('first run creates every code, a second with one change updates one, a third writes nothing', async () => {
		const first = await upsert(ROWS);
		expect(first.error).toBeUndefined();
		expect(results(first.items)).toEqual([
			['Website', 'created'],
			['Chat', 'created'],
			['Party', 'created'],
		]);
		expect(first.items.map((item) => item.pairedItem)).toEqual([
			{ item: 0 },
			{ item: 1 },
			{ item: 2 },
		]);
		expect(jsonOf(first.items)[1]).toEqual(
			expect.objectContaining({
				type: 'whatsapp',
				payload: ROWS[1].payload,
				short_url: expect.any(String),
			}),
		);
		expect(await seen()).toEqual(['GET /qr-codes', ...Array(3).fill('POST /qr-codes')]);
		// Every create carries an Idempotency-Key of its own.
		const keys = (await ctx.requests())
			.filter((r) => r.method === 'POST')
			.map((r) => r.idempotency_key);
		expect(new Set(keys).size).toBe(3);

		const changed = ROWS.map((row) => ({ ...row }));
		changed[0] = { ...ROWS[0], payload: { url: 'https://example.com/new' } };
		const since = await mark();
		const second = await upsert(changed);
		expect(results(second.items)).toEqual([
			['Website', 'updated'],
			['Chat', 'unchanged'],
			['Party', 'unchanged'],
		]);
		expect(jsonOf(second.items)[0]).toEqual(
			expect.objectContaining({
				id: jsonOf(first.items)[0].id,
				payload: { url: 'https://example.com/new' },
			}),
		);
		expect(await since()).toEqual([
			'GET /qr-codes',
			`PATCH /qr-codes/${jsonOf(first.items)[0].id}`,
		]);

		const again = await mark();
		const third = await upsert(changed);
		expect(results(third.items).map(([, result]) => result)).toEqual(Array(3).fill('unchanged'));
		expect(await again()).toEqual(['GET /qr-codes']);
		expect(await ctx.allCodes()).toHaveLength(3);
	});

	test('1,000 rows, 10 changed: the list pages and 10 writes, not a request per row', async () => {
		const rows = Array.from({ length: 1000 }, (_, index) => ({
			name: `Row ${index}`,
			type: 'url',
			payload: { url: `https://example.com/rows/${index}` },
		}));
		const created = await upsert(rows, { parameters: { requestOptions: { concurrency: 8 } } });
		expect(created.error).toBeUndefined();
		expect(new Set(jsonOf(created.items).map((json) => json.createOrUpdate))).toEqual(
			new Set(['created']),
		);

		const changedAt = [3, 99, 100, 250, 400, 512, 640, 777, 901, 999];
		const next = rows.map((row, index) =>
			changedAt.includes(index) ? { ...row, payload: { url: `${row.payload.url}/v2` } } : row,
		);
		const since = await mark();
		const second = await upsert(next, { parameters: { requestOptions: { concurrency: 8 } } });
		expect(second.error).toBeUndefined();
		const outcome = jsonOf(second.items).map((json) => json.createOrUpdate);
		expect(changedAt.map((index) => outcome[index])).toEqual(Array(10).fill('updated'));
		expect(outcome.filter((result) => result === 'unchanged')).toHaveLength(990);
		const requests = await since();
		// Return All: the 10 pages, and page 1 again to confirm the list held still meanwhile.
		expect(requests.filter((line) => line === 'GET /qr-codes')).toHaveLength(11);
		expect(requests.filter((line) => !line.startsWith('GET'))).toHaveLength(10);
		expect(requests).toHaveLength(21);
	});

	test('two rows of one name in a run, 5 at a time: one code, made once, then brought in line', async () => {
		const rows = [
			{ name: 'Twice', type: 'url', payload: { url: 'https://example.com/a' } },
			{ name: 'Other', type: 'url', payload: { url: 'https://example.com/o' } },
			{ name: 'Twice', type: 'url', payload: { url: 'https://example.com/b' } },
			{ name: 'Twice', type: 'url', payload: { url: 'https://example.com/b' } },
		];
		const run = await upsert(rows, { parameters: { requestOptions: { concurrency: 5 } } });
		expect(run.error).toBeUndefined();
		expect(results(run.items)).toEqual([
			['Twice', 'created'],
			['Other', 'created'],
			['Twice', 'updated'],
			['Twice', 'unchanged'],
		]);
		const codes = await ctx.allCodes();
		expect(codes.filter((code) => code.name === 'Twice')).toEqual([
			expect.objectContaining({ payload: { url: 'https://example.com/b' } }),
		]);
	});

	test('several codes of one name: that item fails naming their ids; Continue On Fail goes on', async () => {
		const seeded = await ctx.run(
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ $json.name }}',
				type: 'url',
				payload_url_url: 'https://example.com/dup',
			},
			{ items: [{ json: { name: 'Dup' } }, { json: { name: 'Dup' } }] },
		);
		const ids = jsonOf(seeded.items).map((json) => json.id);
		const since = await mark();
		const rows = [
			{ name: 'Dup', type: 'url', payload: { url: 'https://example.com/changed' } },
			{ name: 'Fine', type: 'url', payload: { url: 'https://example.com/fine' } },
		];
		const failed = await upsert(rows);
		expect(failed.error.message).toBe(
			`2 QR codes are named "Dup" (item 0): ${[...ids].reverse().join(', ')}`,
		);
		expect(failed.error.description).toMatch(/distinct names .* match by QR Code ID instead/);

		const onward = await upsert(rows, { settings: { onError: 'continueErrorOutput' } });
		expect(onward.error).toBeUndefined();
		const [success, errors] = onward.runs.at(-1).data.main;
		expect(results(success)).toEqual([['Fine', 'created']]);
		expect(jsonOf(errors)).toEqual([
			expect.objectContaining({ name: 'Dup', error: expect.stringContaining(ids[0]) }),
		]);
		expect(errors[0].pairedItem).toEqual({ item: 0 });
		// Neither run changed a Dup code.
		expect((await since()).filter((line) => line.startsWith('PATCH'))).toEqual([]);
	});

	test('by an ID in the data: renames and re-points that code; an empty ID creates; a bad or unknown ID fails its item', async () => {
		const made = await upsert([ROWS[0]]);
		const id = jsonOf(made.items)[0].id;
		const byId = {
			parameters: { matchBy: 'id', matchQrCodeId: '={{ $json.id }}' },
			settings: { onError: 'continueRegularOutput' },
		};
		const since = await mark();
		const run = await upsert(
			[
				{ id, name: 'Website (renamed)', type: 'url', payload: { url: 'https://example.com' } },
				{ id: '', name: 'Website', type: 'url', payload: { url: 'https://example.com/second' } },
				{ id: 'not-an-id', name: 'X', type: 'url', payload: { url: 'https://example.com/x' } },
				{ id: 'a1B2c3D4e5F6', name: 'Y', type: 'url', payload: { url: 'https://example.com/y' } },
			],
			byId,
		);
		const out = jsonOf(run.items);
		expect(out[0]).toEqual(
			expect.objectContaining({ id, name: 'Website (renamed)', createOrUpdate: 'updated' }),
		);
		expect(out[1]).toEqual(expect.objectContaining({ name: 'Website', createOrUpdate: 'created' }));
		expect(out[1].id).not.toBe(id);
		expect(out[2].error).toBe(
			'Invalid QR Code ID to Match "not-an-id" in item 2: an ID has 12 letters and digits ("-" and "_" count too)',
		);
		expect(out[3].error).toBe('The QR code "a1B2c3D4e5F6" was not found in this workspace (404)');
		// The list is read first (the create waits for it); items of different codes run side by
		// side, so the order of the rest is not fixed.
		const [first, ...rest] = await since();
		expect(first).toBe('GET /qr-codes');
		expect(rest.sort()).toEqual(
			[`PATCH /qr-codes/${id}`, 'POST /qr-codes', 'GET /qr-codes/a1B2c3D4e5F6'].sort(),
		);
	});

	test('a type change sends the type and its whole payload; values written differently but meaning the same are no change', async () => {
		const first = await upsert(ROWS);
		const ids = jsonOf(first.items).map((json) => json.id);
		const since = await mark();
		const second = await upsert([
			{ name: 'Website', type: 'maps', payload: { query: 'Brandenburg Gate' } },
			// The same number and the same instant, written another way; the message left empty keeps it.
			{ name: 'Chat', type: 'WhatsApp', payload: { phone: '+1 (415) 555-0123' } },
			{
				name: 'Party',
				type: 'event',
				payload: { title: 'Party', starts_at: '2030-05-01T20:00:00+02:00' },
			},
		]);
		expect(results(second.items)).toEqual([
			['Website', 'updated'],
			['Chat', 'unchanged'],
			['Party', 'unchanged'],
		]);
		expect(jsonOf(second.items)[0]).toEqual(
			expect.objectContaining({ id: ids[0], type: 'maps', payload: { query: 'Brandenburg Gate' } }),
		);
		expect(await since()).toEqual(['GET /qr-codes', `PATCH /qr-codes/${ids[0]}`]);
		expect(jsonOf(second.items)[1].payload).toEqual(ROWS[1].payload);

		// A field set to another value changes only that field; the others stay as they were.
		const third = await upsert([
			{ name: 'Chat', type: 'whatsapp', payload: { phone: '+14155550199' } },
		]);
		expect(jsonOf(third.items)[0].payload).toEqual({ phone: '+14155550199', message: 'Hello!' });
	});

	test('Fields for Mixed Types and Fields for the Type work as they do for Create', async () => {
		const mixed = {
			payloadInput: 'mixed',
			payloadJson: undefined,
			mixedPayload_url: '={{ $json.url }}',
			mixedPayload_phone: '={{ $json.phone }}',
		};
		const rows = [
			{ name: 'M1', type: 'url', url: 'https://example.com/m1' },
			{ name: 'M2', type: 'phone', phone: '+4930123456' },
		];
		expect(results((await upsert(rows, { parameters: mixed })).items)).toEqual([
			['M1', 'created'],
			['M2', 'created'],
		]);
		rows[1] = { ...rows[1], phone: '+4930123457' };
		expect(results((await upsert(rows, { parameters: mixed })).items)).toEqual([
			['M1', 'unchanged'],
			['M2', 'updated'],
		]);

		const fixed = await ctx.run({
			resource: 'qrCode',
			operation: 'upsert',
			name: 'M1',
			type: 'url',
			payload_url_url: 'https://example.com/m1',
		});
		expect(results(fixed.items)).toEqual([['M1', 'unchanged']]);
	});

	test('Paused: a code found is paused only when it is not; a new code asked for paused is paused after its create', async () => {
		const paused = { additionalFields: { paused: true } };
		const first = await upsert([ROWS[0]], { parameters: paused });
		expect(jsonOf(first.items)[0]).toEqual(
			expect.objectContaining({ paused: true, createOrUpdate: 'created' }),
		);
		const id = jsonOf(first.items)[0].id;
		expect(await writes()).toEqual(['POST /qr-codes', `PATCH /qr-codes/${id}`]);

		const since = await mark();
		expect(results((await upsert([ROWS[0]], { parameters: paused })).items)).toEqual([
			['Website', 'unchanged'],
		]);
		const resumed = await upsert([ROWS[0]], {
			parameters: { additionalFields: { paused: false } },
		});
		expect(jsonOf(resumed.items)[0]).toEqual(
			expect.objectContaining({ paused: false, createOrUpdate: 'updated' }),
		);
		// Without Paused, a paused code stays as it is.
		expect(results((await upsert([ROWS[0]])).items)).toEqual([['Website', 'unchanged']]);
		expect((await since()).filter((line) => !line.startsWith('GET'))).toEqual([
			`PATCH /qr-codes/${id}`,
		]);
	});

	test('Design: the list does not show it, so it goes along with another change and never writes alone', async () => {
		const logoUploadId = await ctx.uploadLogo();
		const made = await upsert([ROWS[0]]);
		const id = jsonOf(made.items)[0].id;
		const withLogo = { parameters: { additionalFields: { logoUploadId } } };
		const since = await mark();
		expect(results((await upsert([ROWS[0]], withLogo)).items)).toEqual([['Website', 'unchanged']]);
		expect(await since()).toEqual(['GET /qr-codes']);

		const moved = { ...ROWS[0], payload: { url: 'https://example.com/moved' } };
		expect(results((await upsert([moved], withLogo)).items)).toEqual([['Website', 'updated']]);
		const stored = (await ctx.allCodes()).find((code) => code.id === id);
		expect(stored.design).toEqual(expect.objectContaining({ logo_upload_id: logoUploadId }));
	});

	test('values as expressions give them: a number as Name, Paused as text', async () => {
		const fromData = {
			parameters: {
				name: '={{ $json.number }}',
				additionalFields: { paused: '={{ $json.paused }}' },
			},
			settings: { onError: 'continueRegularOutput' },
		};
		const row = (paused) => ({
			number: 42,
			type: 'url',
			payload: { url: 'https://example.com/42' },
			paused,
		});
		const first = await upsert([row('true')], fromData);
		expect(jsonOf(first.items)[0]).toEqual(
			expect.objectContaining({ name: '42', paused: true, createOrUpdate: 'created' }),
		);
		const since = await mark();
		const again = await upsert([row('TRUE'), row('maybe')], fromData);
		expect(jsonOf(again.items)[0].createOrUpdate).toBe('unchanged');
		expect(jsonOf(again.items)[1].error).toBe(
			'Invalid "Paused" (in Additional Fields) in item 1: got the text "maybe", expected true or false (the texts "true" and "false", or 1 and 0, count too)',
		);
		expect(await since()).toEqual(['GET /qr-codes']);
	});

	test('bad input fails the item before any request, naming the field', async () => {
		const run = await upsert(
			[
				{ name: '', type: 'url', payload: { url: 'https://example.com' } },
				{ name: 'Bad URL', type: 'url', payload: { url: 'example com' } },
			],
			{ settings: { onError: 'continueRegularOutput' } },
		);
		expect(jsonOf(run.items).map((json) => json.error)).toEqual([
			'Missing "Name" in item 0: it is required',
			expect.stringMatching(
				/^Invalid "URL" \(payload\.url\) in item 1: must be a full http or https URL/,
			),
		]);
		expect(await seen()).toEqual([]);
	});
});

describe('Create or Update against other readings of the reference', () => {
	test('lists capped at 50 without links or meta, and a PATCH answered 204: still one read per run and writes only for changes', async () => {
		await ctx.control('PUT', '/readings', {
			names: ['data-only', 'per-page-cap-50', 'status-codes-alt'],
		});
		try {
			const rows = Array.from({ length: 120 }, (_, index) => ({
				name: `R ${index}`,
				type: 'url',
				payload: { url: `https://example.com/r/${index}` },
			}));
			await upsert(rows);
			rows[60] = { ...rows[60], payload: { url: 'https://example.com/r/60/v2' } };
			const since = await mark();
			const run = await upsert(rows);
			expect(run.error).toBeUndefined();
			expect(jsonOf(run.items)[60]).toEqual(
				expect.objectContaining({
					name: 'R 60',
					payload: { url: 'https://example.com/r/60/v2' },
					createOrUpdate: 'updated',
				}),
			);
			const requests = await since();
			const id = jsonOf(run.items)[60].id;
			// Three pages of 50, then the PATCH and the read-back its empty 204 answer needs.
			expect(requests).toEqual([
				...Array(3).fill('GET /qr-codes'),
				`PATCH /qr-codes/${id}`,
				`GET /qr-codes/${id}`,
			]);
		} finally {
			await ctx.control('PUT', '/readings', { names: [] });
		}
	});
});

describe('what differs, for keys that name a member of every object', () => {
	const path = require('node:path');
	const { DIST } = require('../engine/n8n-core');
	const { differences } = require(path.join(DIST, 'nodes/DynamicQr/actions/qrCode/differences.js'));
	const { QR_TYPES } = require(path.join(DIST, 'nodes/DynamicQr/qrTypes.js'));
	const url = QR_TYPES.find((type) => type.value === 'url');
	const record = {
		name: 'Website',
		type: 'url',
		payload: { url: 'https://example.com' },
		design: { color: '#000000' },
	};

	test.each(['__proto__', 'constructor', 'toString'])(
		'a Design key "%s" the code does not hold is a change',
		(key) => {
			const design = JSON.parse(`{"color": "#000000", "${key}": {}}`);
			const wanted = { type: url, body: { ...record, design } };
			expect(differences(record, wanted).fields).toEqual(['design']);
		},
	);
});
