'use strict';

const { PNG } = require('pngjs');
const { useSandbox, decodePng } = require('./helpers');

const sb = useSandbox();

afterEach(() => sb.control('POST', '/reset'));

const createCode = async (extra = {}) =>
	sb.api.post('/qr-codes', {
		type: 'url',
		name: 'Print me',
		payload: { url: 'https://example.com/print' },
		...extra,
	});

function tinyPng() {
	const png = new PNG({ width: 2, height: 2 });
	png.data.fill(255);
	return PNG.sync.write(png);
}
const JPEG = Buffer.from([
	0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0xff, 0xd9,
]);
const SVG = Buffer.from(
	'<?xml version="1.0"?>\n<!-- logo -->\n<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>',
);

function multipart(parts, boundary = '----sandboxBoundary7') {
	const chunks = [];
	for (const part of parts) {
		const filename = part.filename ? `; filename="${part.filename}"` : '';
		chunks.push(
			Buffer.from(
				`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${filename}\r\n` +
					`${part.type ? `Content-Type: ${part.type}\r\n` : ''}\r\n`,
			),
			Buffer.from(part.data),
			Buffer.from('\r\n'),
		);
	}
	chunks.push(Buffer.from(`--${boundary}--\r\n`));
	return {
		body: Buffer.concat(chunks),
		headers: { 'Content-Type': `multipart/form-data; boundary=${boundary}` },
	};
}
const uploadLogo = (parts, api = sb.api) => api.raw('POST', '/uploads/logos', multipart(parts));

describe('GET /qr-codes/{id}/image', () => {
	test('defaults to a 1024 px PNG that decodes to the short link', async () => {
		const code = (await createCode()).body.data;
		const answer = await sb.readOnlyApi.get(`/qr-codes/${code.id}/image`);
		expect(answer.status).toBe(200);
		expect(answer.headers['content-type']).toBe('image/png');
		expect(answer.headers['content-disposition']).toBe(`attachment; filename="qr-${code.id}.png"`);
		const decoded = decodePng(answer.buffer);
		expect(decoded).toEqual({ width: 1024, height: 1024, text: code.short_url });
		expect(answer.headers['x-ratelimit-remaining']).toBeDefined();
	});

	test('size, and mm with dpi (mm wins), set the PNG size', async () => {
		const code = (await createCode()).body.data;
		expect(decodePng((await sb.api.get(`/qr-codes/${code.id}/image?size=300`)).buffer).width).toBe(
			300,
		);
		const printed = decodePng(
			(await sb.api.get(`/qr-codes/${code.id}/image?size=300&mm=50.8&dpi=200`)).buffer,
		);
		expect(printed).toEqual({ width: 400, height: 400, text: code.short_url });
	});

	test.each([
		['svg', 'image/svg+xml', /<svg/],
		['pdf', 'application/pdf', /^%PDF-/],
		['eps', 'application/postscript', /^%!PS-Adobe-3\.0 EPSF/],
	])('format=%s answers %s', async (format, contentType, start) => {
		const code = (await createCode()).body.data;
		const answer = await sb.api.get(`/qr-codes/${code.id}/image?format=${format}&mm=30`);
		expect(answer.status).toBe(200);
		expect(answer.headers['content-type']).toBe(contentType);
		expect(answer.text).toMatch(start);
	});

	test.each([
		['format=gif', 'format'],
		['size=abc', 'size'],
		['size=10', 'size'],
		['mm=0', 'mm'],
	])('%s is a 422 naming %s', async (query, field) => {
		const code = (await createCode()).body.data;
		const answer = await sb.api.get(`/qr-codes/${code.id}/image?${query}`);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});

	test('an unknown or deleted code is a 404', async () => {
		const code = (await createCode()).body.data;
		await sb.api.delete(`/qr-codes/${code.id}`);
		expect((await sb.api.get(`/qr-codes/${code.id}/image`)).status).toBe(404);
	});
});

describe('POST /static-qr-codes', () => {
	const STATIC_CASES = [
		['url', { url: 'https://example.com/s' }, 'https://example.com/s'],
		[
			'whatsapp',
			{ phone: '+49 151 23456789', message: 'Hi' },
			'https://wa.me/4915123456789?text=Hi',
		],
		['phone', { phone: '+14155550123' }, 'tel:+14155550123'],
		['email', { email: 'a@example.com', subject: 'Hi' }, 'mailto:a@example.com?subject=Hi'],
		['sms', { phone: '+14155550123', message: 'STOP' }, 'SMSTO:+14155550123:STOP'],
		[
			'maps',
			{ query: 'Eiffel Tower' },
			'https://www.google.com/maps/search/?api=1&query=Eiffel%20Tower',
		],
		[
			'google_review',
			{ place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' },
			'https://search.google.com/local/writereview?placeid=ChIJN1t_tDeuEmsRUsoyG83frY4',
		],
		['menu', { title: 'Menu', menu_url: 'https://example.com/menu' }, 'https://example.com/menu'],
		[
			'event',
			{ title: 'Launch, party', starts_at: '2030-05-01T18:00:00+02:00', location: 'Berlin' },
			'BEGIN:VEVENT\nSUMMARY:Launch\\, party\nDTSTART:20300501T160000Z\nLOCATION:Berlin\nEND:VEVENT',
		],
		[
			'coupon',
			{ title: '10% off', code: 'SAVE10', expires_at: '2030-12-31' },
			'10% off\nCode: SAVE10\nValid until: 2030-12-31',
		],
		['social', { platform: 'youtube', handle: 'example' }, 'https://www.youtube.com/@example'],
		[
			'file',
			{ title: 'Brochure', file_url: 'https://example.com/b.pdf' },
			'https://example.com/b.pdf',
		],
	];

	test('exactly 12 types are offered', () => {
		expect(STATIC_CASES).toHaveLength(12);
	});

	test.each(STATIC_CASES)(
		'type %s encodes its natural static content',
		async (type, payload, text) => {
			const answer = await sb.api.post('/static-qr-codes', {
				type,
				payload,
				format: 'png',
				size: 512,
			});
			expect(answer.status).toBe(200);
			expect(answer.headers['content-type']).toBe('image/png');
			expect(decodePng(answer.buffer)).toEqual({ width: 512, height: 512, text });
		},
	);

	test('static codes of Pro types need no smart redirects (nothing redirects)', async () => {
		const answer = await sb.basicApi.post('/static-qr-codes', {
			type: 'menu',
			payload: { title: 'Menu', menu_url: 'https://example.com/m' },
		});
		expect(answer.status).toBe(200);
	});

	test('saves nothing in the account', async () => {
		await sb.api.post('/static-qr-codes', { type: 'url', payload: { url: 'https://example.com' } });
		expect((await sb.control('GET', '/qr-codes')).data).toEqual([]);
	});

	test('other formats and mm + dpi are accepted', async () => {
		const answer = await sb.api.post('/static-qr-codes', {
			type: 'url',
			payload: { url: 'https://example.com' },
			format: 'pdf',
			mm: 40,
			dpi: 600,
		});
		expect(answer.headers['content-type']).toBe('application/pdf');
	});

	test.each(['link_bio', 'app_store'])(
		'type %s is a 422 on type (it needs redirects)',
		async (type) => {
			const answer = await sb.api.post('/static-qr-codes', { type, payload: {} });
			expect(answer.status).toBe(422);
			expect(Object.keys(answer.body.errors)).toEqual(['type']);
		},
	);

	test.each([
		[{ type: 'file', payload: { title: 'No file' } }, 'payload.file_url'],
		[{ type: 'url', payload: { url: 'nope' } }, 'payload.url'],
		[{ type: 'url' }, 'payload'],
		[{ payload: { url: 'https://example.com' } }, 'type'],
		[{ type: 'url', payload: { url: 'https://example.com' }, format: 'bmp' }, 'format'],
		[{ type: 'url', payload: { url: 'https://example.com' }, name: 'x' }, 'name'],
	])('%j is a 422 naming %s', async (body, field) => {
		const answer = await sb.api.post('/static-qr-codes', body);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual([field]);
	});
});

describe('POST /uploads/logos', () => {
	test.each([
		['logo.png', tinyPng(), 'image/png'],
		['logo.jpg', JPEG, 'image/jpeg'],
		['logo.svg', SVG, 'image/svg+xml'],
	])('%s is stored with the type found in its bytes', async (filename, data, contentType) => {
		const answer = await uploadLogo([
			{ name: 'file', filename, type: 'application/octet-stream', data },
		]);
		expect(answer.status).toBe(201);
		expect(answer.body.data).toEqual({
			id: expect.stringMatching(/^[A-Za-z0-9]{12}$/),
			object: 'logo_upload',
			filename,
			content_type: contentType,
			size: data.length,
			created_at: expect.stringMatching(/Z$/),
		});
	});

	test.each([
		['a GIF', [{ name: 'file', filename: 'a.gif', data: Buffer.from('GIF89a\x01\x00\x01\x00') }]],
		[
			'a text file claiming to be a PNG',
			[{ name: 'file', filename: 'a.png', type: 'image/png', data: 'hello' }],
		],
		['an empty file', [{ name: 'file', filename: 'a.png', data: '' }]],
		['no file field', [{ name: 'logo', filename: 'a.png', data: tinyPng() }]],
		['a plain text field named file', [{ name: 'file', data: 'not a file' }]],
		[
			'a PNG over 2 MB',
			[
				{
					name: 'file',
					filename: 'big.png',
					data: Buffer.concat([tinyPng(), Buffer.alloc(2 * 1024 * 1024)]),
				},
			],
		],
	])('%s is a 422 on file', async (label, parts) => {
		const answer = await uploadLogo(parts);
		expect(answer.status).toBe(422);
		expect(Object.keys(answer.body.errors)).toEqual(['file']);
	});

	test('a JSON body is a 422 on file that says to use multipart/form-data', async () => {
		const answer = await sb.api.post('/uploads/logos', { file: 'x' });
		expect(answer.status).toBe(422);
		expect(answer.body.errors.file[0]).toMatch(/multipart\/form-data/);
	});

	test('design.logo_upload_id must name an upload of the same workspace', async () => {
		const upload = (await uploadLogo([{ name: 'file', filename: 'l.png', data: tinyPng() }])).body
			.data;
		const withLogo = await createCode({ design: { logo_upload_id: upload.id } });
		expect(withLogo.status).toBe(201);
		expect(withLogo.body.data.design).toEqual({ logo_upload_id: upload.id });
		const unknown = await createCode({ design: { logo_upload_id: 'AAAAAAAAAAAA' } });
		expect(unknown.status).toBe(422);
		expect(Object.keys(unknown.body.errors)).toEqual(['design.logo_upload_id']);
		const foreign = await sb.basicApi.post('/qr-codes', {
			type: 'url',
			name: 'x',
			payload: { url: 'https://example.com' },
			design: { logo_upload_id: upload.id },
		});
		expect(Object.keys(foreign.body.errors)).toEqual(['design.logo_upload_id']);
		const patched = await sb.api.patch(`/qr-codes/${withLogo.body.data.id}`, {
			design: { logo_upload_id: 'BBBBBBBBBBBB' },
		});
		expect(Object.keys(patched.body.errors)).toEqual(['design.logo_upload_id']);
	});
});
