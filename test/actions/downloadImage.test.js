'use strict';
/**
 * QR Code › Download Image for print runs (issue 52): one request per file when the input item is
 * already the code's record, the File Name option (expressions, refused characters, the format's
 * extension, repeats made distinct in input order while items run concurrently), and where the
 * item's name and short_url come from.
 */
const { useSandbox, decodeQr } = require('../support/action-sandbox');

const ctx = useSandbox();

/** Codes as Create outputs them (the records), made first: the engine's first run takes seconds. */
let codes;
beforeAll(async () => {
	const { items, error } = await ctx.createMany(6, 'Room');
	expect(error).toBeUndefined();
	codes = items.map((item) => item.json);
});
afterAll(() => ctx.expectNoKeyLeak());

const download = (extra = {}) => ({
	resource: 'qrCode',
	operation: 'downloadImage',
	qrCodeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
	format: 'pdf',
	sizeUnit: 'mm',
	mm: 50,
	dpi: 300,
	...extra,
});

/** The API's requests sent from now on, as "METHOD path". */
async function requestsFrom() {
	const count = (await ctx.requests()).length;
	return async () => (await ctx.requests()).slice(count).map((r) => `${r.method} ${r.path}`);
}

const fileNames = (items) => items.map((item) => item.binary.data.fileName);

test('after Create (the items are the records) one request per file: the image only; id, name and short_url from the item', async () => {
	const sent = await requestsFrom();
	// Small images: decoding them is synchronous work that holds up this process, sandbox included.
	const { items, error } = await ctx.run(
		download({ format: 'png', sizeUnit: 'pixels', size: 256 }),
		{
			items: codes.map((json) => ({ json })),
		},
	);
	expect(error).toBeUndefined();
	expect(await sent()).toEqual(
		expect.arrayContaining(codes.map((code) => `GET /qr-codes/${code.id}/image`)),
	);
	expect(await sent()).toHaveLength(codes.length);
	expect(items.map((item) => item.json)).toEqual(
		codes.map((code) => ({
			id: code.id,
			name: code.name,
			short_url: code.short_url,
			format: 'png',
		})),
	);
	expect(items.map((item) => decodeQr(Buffer.from(item.binary.data.data, 'base64')))).toEqual(
		codes.map((code) => code.short_url),
	);
});

test("the fields' sources: an item with only the ID reads the code as before, unless Read the Code When Needed is off; another code's record is no source", async () => {
	const [code] = codes;
	const byIdOnly = await requestsFrom();
	const read = await ctx.run(download(), { items: [{ json: { id: code.id } }] });
	expect(read.items[0].json).toEqual({
		id: code.id,
		name: code.name,
		short_url: code.short_url,
		format: 'pdf',
	});
	expect(await byIdOnly()).toEqual([`GET /qr-codes/${code.id}`, `GET /qr-codes/${code.id}/image`]);

	const noRead = await requestsFrom();
	const bare = await ctx.run(download({ options: { readCode: false } }), {
		items: [{ json: { id: code.id } }],
	});
	expect(bare.items[0].json).toEqual({ id: code.id, format: 'pdf' });
	expect(await noRead()).toEqual([`GET /qr-codes/${code.id}/image`]);

	// The item holds another code's record: this code is read.
	const other = await ctx.run(download({ qrCodeId: { __rl: true, mode: 'id', value: code.id } }), {
		items: [{ json: { ...code, id: 'another00001', name: 'Another' } }],
	});
	expect(other.items[0].json).toMatchObject({ id: code.id, name: code.name });
});

test('File Name from an expression, with the extension of the format chosen per item', async () => {
	const formats = ['pdf', 'svg', 'eps', 'png'];
	const rows = codes.slice(0, 4).map((code, index) => ({
		json: { ...code, key: `R-10${index}`, format: formats[index] },
	}));
	const { items, error } = await ctx.run(
		download({ format: '={{ $json.format }}', options: { fileName: '={{ $json.key }}' } }),
		{ items: rows },
	);
	expect(error).toBeUndefined();
	expect(fileNames(items)).toEqual(['R-100.pdf', 'R-101.svg', 'R-102.eps', 'R-103.png']);
	// A name given with one of the four extensions gets the format's instead.
	const renamed = await ctx.run(download({ options: { fileName: 'room-1.PNG' } }), {
		items: [rows[0]],
	});
	expect(fileNames(renamed.items)).toEqual(['room-1.pdf']);
});

test('characters a file system refuses become _, a device name gets _ first; a name with no letter or digit fails its item before any request', async () => {
	const keys = ['Hall A/B: "North"?', 'CON', 'café *1* <ok>', ' trailing. ', 'tab\there'];
	const { items, error } = await ctx.run(download({ options: { fileName: '={{ $json.key }}' } }), {
		items: codes.slice(0, 5).map((code, index) => ({ json: { ...code, key: keys[index] } })),
	});
	expect(error).toBeUndefined();
	expect(fileNames(items)).toEqual([
		'Hall A_B_ _North__.pdf',
		'_CON.pdf',
		'café _1_ _ok_.pdf',
		'trailing..pdf',
		'tab_here.pdf',
	]);

	const sent = await requestsFrom();
	const bad = await ctx.run(download({ options: { fileName: '={{ $json.key }}' } }), {
		items: ['Room 1', '../..', 'Room 2'].map((key, index) => ({
			json: { ...codes[index], key },
		})),
		settings: { onError: 'continueRegularOutput' },
	});
	expect(bad.items[1].json.error).toBe(
		'Invalid "File Name" (in Options) in item 1: got the text "../..", expected a name with a letter or digit, at most 200 bytes (the extension is added)',
	);
	expect(fileNames([bad.items[0], bad.items[2]])).toEqual(['Room 1.pdf', 'Room 2.pdf']);
	expect(await sent()).toHaveLength(2);
});

test('names that repeat get " (2)", " (3)" in input order (letter case aside), whatever order the items finish in', async () => {
	await ctx.control('POST', '/faults', { latencyJitterMs: 60 });
	// Items of one code run one after another: once the first item has answered, items 2, 5 and 6
	// start after items 3 and 4 have (the first item runs alone while the plan's rate is learnt).
	const rows = [
		[0, 'Start'],
		[1, 'Lobby'],
		[1, 'Sign'],
		[2, 'sign'],
		[3, 'Lobby'],
		[2, 'lobby'],
		[3, 'LOBBY'],
		[0, 'Lobby (2)'],
	].map(([code, key]) => ({ json: { ...codes[code], key } }));
	const expected = [
		'Start.pdf',
		'Lobby.pdf',
		'Sign.pdf',
		'sign (2).pdf',
		'Lobby (2).pdf',
		'lobby (3).pdf',
		'LOBBY (4).pdf',
		'Lobby (2) (2).pdf',
	];
	for (let run = 0; run < 3; run++) {
		const { items, error } = await ctx.run(
			download({ options: { fileName: '={{ $json.key }}' } }),
			{ items: rows },
		);
		expect(error).toBeUndefined();
		expect(fileNames(items)).toEqual(expected);
	}
	// Without File Name the names are as before: qr-<id>, a repeated code's too.
	await ctx.control('POST', '/faults', { latencyJitterMs: 0 });
	const plain = await ctx.run(download(), { items: [rows[1], rows[2]] });
	expect(fileNames(plain.items)).toEqual([`qr-${codes[1].id}.pdf`, `qr-${codes[1].id}.pdf`]);
});
