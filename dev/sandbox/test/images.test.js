'use strict';

// Every format is checked by reading the file back the way a viewer would: the PNG is
// decoded; for SVG, PDF and EPS the drawn shapes are painted onto a raster, saved as a PNG
// with pngjs and decoded with jsQR. A mirrored or shifted code still decodes, so the painted
// modules are also compared with the code's own matrix.

const { PNG } = require('pngjs');
const QRCode = require('qrcode');
const { XMLParser, XMLValidator } = require('fast-xml-parser');
const { parseImageOptions, renderQr, ImageOptionsError } = require('../images');
const { decodePng } = require('../../qr-image');

const TEXT = 'http://127.0.0.1:4010/s/Ab3dEf6hIj9k';
const POINTS_PER_MM = 72 / 25.4;
const RASTER_PIXELS = 400;

function optionsFor(input) {
	const parsed = parseImageOptions(input);
	expect(parsed.ok).toBe(true);
	return parsed.options;
}

/** A white square raster of `side` user units, y pointing down, painted with filled rectangles. */
function createCanvas(side) {
	const gray = new Uint8Array(RASTER_PIXELS * RASTER_PIXELS).fill(255);
	const unitsPerPixel = side / RASTER_PIXELS;
	return {
		fillRect(x, y, width, height, value) {
			// A pixel takes the colour of a rectangle that covers its centre.
			const firstPixel = (start) => Math.max(0, Math.ceil(start / unitsPerPixel - 0.5));
			const [left, right] = [firstPixel(x), firstPixel(x + width)];
			for (let row = firstPixel(y); row < Math.min(firstPixel(y + height), RASTER_PIXELS); row++) {
				gray.fill(
					value,
					row * RASTER_PIXELS + left,
					row * RASTER_PIXELS + Math.min(right, RASTER_PIXELS),
				);
			}
		},
		toPng() {
			const png = new PNG({ width: RASTER_PIXELS, height: RASTER_PIXELS });
			for (let index = 0; index < gray.length; index++) {
				png.data.writeUInt32BE(gray[index] * 0x1010100 + 255, index * 4);
			}
			return PNG.sync.write(png, { filterType: 2 }); // pngjs's filter search is slow under jest
		},
		/** The colour at the centre of each module, as rows of '#' (dark) and '.' (light). */
		moduleRows(count) {
			const centre = (index) => Math.floor(((index + 0.5) * RASTER_PIXELS) / count);
			return Array.from({ length: count }, (_, row) =>
				Array.from({ length: count }, (_, col) =>
					gray[centre(row) * RASTER_PIXELS + centre(col)] < 128 ? '#' : '.',
				).join(''),
			);
		},
	};
}

/** The modules the code must show, with its quiet zone of 4, in the form of moduleRows. */
function expectedModuleRows(text) {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
	const count = modules.size + 8;
	const inCode = (index) => index >= 4 && index < count - 4;
	return Array.from({ length: count }, (_, row) =>
		Array.from({ length: count }, (_, col) =>
			inCode(row) && inCode(col) && modules.get(row - 4, col - 4) ? '#' : '.',
		).join(''),
	);
}

function expectPaintedCode(canvas) {
	const expected = expectedModuleRows(TEXT);
	expect(canvas.moduleRows(expected.length)).toEqual(expected);
	expect(decodePng(canvas.toPng()).text).toBe(TEXT);
}

// Affine matrices as [a b c d e f], composed the PostScript way: `m` applies before `ctm`.
function multiply(m, ctm) {
	const [a, b, c, d, e, f] = m;
	const [A, B, C, D, E, F] = ctm;
	return [
		a * A + b * C,
		a * B + b * D,
		c * A + d * C,
		c * B + d * D,
		e * A + f * C + E,
		e * B + f * D + F,
	];
}

function transformRect(ctm, x, y, width, height) {
	const apply = (px, py) => [
		ctm[0] * px + ctm[2] * py + ctm[4],
		ctm[1] * px + ctm[3] * py + ctm[5],
	];
	const [x1, y1] = apply(x, y);
	const [x2, y2] = apply(x + width, y + height);
	return {
		x: Math.min(x1, x2),
		y: Math.min(y1, y2),
		width: Math.abs(x2 - x1),
		height: Math.abs(y2 - y1),
	};
}

/**
 * Runs a page description of numbers and operators (PDF content or PostScript) and paints
 * it on a canvas of `side` points. PDF and PostScript put y upwards, the canvas downwards.
 * Each format supplies its own operators; an unknown operator fails the test.
 */
function paintPage(source, side, operators) {
	const canvas = createCanvas(side);
	const state = { ctm: [1, 0, 0, 1, 0, 0], gray: 0, path: [], saved: [] };
	state.fill = (rect) =>
		canvas.fillRect(rect.x, side - rect.y - rect.height, rect.width, rect.height, state.gray);
	const operands = [];
	for (const token of source.split(/\s+/).filter(Boolean)) {
		if (/^-?[\d.]+$/.test(token)) {
			operands.push(Number(token));
			continue;
		}
		expect(Object.keys(operators)).toContain(token);
		operators[token](state, operands.splice(0));
	}
	return canvas;
}

const SHARED_STATE_OPERATORS = {
	save: (state) => state.saved.push({ ctm: state.ctm, gray: state.gray }),
	restore: (state) => Object.assign(state, state.saved.pop()),
};

const PDF_OPERATORS = {
	q: SHARED_STATE_OPERATORS.save,
	Q: SHARED_STATE_OPERATORS.restore,
	g: (state, [value]) => (state.gray = Math.round(value * 255)),
	cm: (state, matrix) => (state.ctm = multiply(matrix, state.ctm)),
	re: (state, [x, y, width, height]) =>
		state.path.push(transformRect(state.ctm, x, y, width, height)),
	f: (state) => state.path.splice(0).forEach(state.fill),
};

const EPS_OPERATORS = {
	gsave: SHARED_STATE_OPERATORS.save,
	grestore: SHARED_STATE_OPERATORS.restore,
	setgray: (state, [value]) => (state.gray = Math.round(value * 255)),
	translate: (state, [x, y]) => (state.ctm = multiply([1, 0, 0, 1, x, y], state.ctm)),
	scale: (state, [x, y]) => (state.ctm = multiply([x, 0, 0, y, 0, 0], state.ctm)),
	rectfill: (state, [x, y, width, height]) =>
		state.fill(transformRect(state.ctm, x, y, width, height)),
	showpage: () => {},
};

function parseSvg(buffer) {
	const xml = buffer.toString('utf8');
	expect(XMLValidator.validate(xml)).toBe(true);
	const document = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '' }).parse(xml);
	expect(Object.keys(document).filter((key) => key !== '?xml')).toEqual(['svg']);
	return document.svg;
}

/** Paints the SVG's rect and path (only "M x y h w v1 h-w z" runs are expected) in viewBox units. */
function paintSvg(svg) {
	const [minX, minY, width, height] = svg.viewBox.split(' ').map(Number);
	expect([minX, minY, width]).toEqual([0, 0, height]);
	const canvas = createCanvas(width);
	const grayOf = (fill) => ({ '#ffffff': 255, '#000000': 0 })[fill];
	canvas.fillRect(0, 0, Number(svg.rect.width), Number(svg.rect.height), grayOf(svg.rect.fill));
	const runs = [...svg.path.d.matchAll(/M(\d+) (\d+)h(\d+)v1h-(\d+)z/g)];
	expect(runs.map((run) => run[0]).join('')).toBe(svg.path.d);
	for (const [, x, y, length, back] of runs) {
		expect(back).toBe(length);
		canvas.fillRect(Number(x), Number(y), Number(length), 1, grayOf(svg.path.fill));
	}
	return canvas;
}

/** Checks the xref table against the file and returns the objects by number. */
function readPdfObjects(buffer) {
	const pdf = buffer.toString('latin1');
	const xrefOffset = Number(/startxref\n(\d+)\n%%EOF\n$/.exec(pdf)[1]);
	const [, first, count, entries] = /^xref\n(\d+) (\d+)\n((?:\d{10} \d{5} [nf] \n)+)/.exec(
		pdf.slice(xrefOffset),
	);
	expect(Number(first)).toBe(0);
	expect(Number(/\/Size (\d+)/.exec(pdf.slice(xrefOffset))[1])).toBe(Number(count));
	const objects = {};
	entries
		.trimEnd()
		.split(' \n')
		.slice(1)
		.forEach((entry, index) => {
			const number = index + 1;
			const offset = Number(entry.slice(0, 10));
			const header = `${number} 0 obj\n`;
			expect(pdf.slice(offset, offset + header.length)).toBe(header);
			objects[number] = pdf.slice(offset + header.length, pdf.indexOf('\nendobj\n', offset));
		});
	expect(Object.keys(objects)).toHaveLength(Number(count) - 1);
	return objects;
}

function pdfPage(buffer) {
	const objects = readPdfObjects(buffer);
	const root = /\/Root (\d+) 0 R/.exec(buffer.toString('latin1'))[1];
	const pages = /\/Pages (\d+) 0 R/.exec(objects[root])[1];
	const page = objects[/\/Kids \[(\d+) 0 R\]/.exec(objects[pages])[1]];
	const mediaBox = /\/MediaBox \[([^\]]+)\]/.exec(page)[1].trim().split(/\s+/).map(Number);
	const stream = objects[/\/Contents (\d+) 0 R/.exec(page)[1]];
	const [, length, rest] = /^<< \/Length (\d+) >>\nstream\n([\s\S]*)$/.exec(stream);
	const content = Buffer.from(rest, 'latin1').subarray(0, Number(length)).toString('latin1');
	expect(rest.slice(content.length)).toBe('endstream');
	return { mediaBox, content };
}

function epsParts(buffer) {
	const eps = buffer.toString('latin1');
	const header = (name) =>
		/^(.*)$/m
			.exec(eps.split(`%%${name}: `)[1])[1]
			.split(' ')
			.map(Number);
	const body = eps.slice(
		eps.indexOf('%%EndComments\n') + '%%EndComments\n'.length,
		eps.lastIndexOf('%%EOF'),
	);
	return {
		firstLine: eps.split('\n')[0],
		boundingBox: header('BoundingBox'),
		hiResBoundingBox: header('HiResBoundingBox'),
		body,
	};
}

describe('parseImageOptions', () => {
	it('defaults to a 1024 pixel PNG', () => {
		expect(parseImageOptions({})).toEqual({ ok: true, options: { format: 'png', size: 1024 } });
	});

	it('reads numbers from query strings', () => {
		expect(optionsFor({ format: 'svg', size: '512' })).toEqual({ format: 'svg', size: 512 });
	});

	it('lets mm win over size and defaults dpi to 300', () => {
		expect(optionsFor({ size: '512', mm: '50' })).toEqual({ format: 'png', mm: 50, dpi: 300 });
		expect(optionsFor({ format: 'pdf', mm: 25.5, dpi: 600 })).toEqual({
			format: 'pdf',
			mm: 25.5,
			dpi: 600,
		});
	});

	it.each([
		[{ format: 'gif' }, 'format'],
		[{ format: 'PNG ' }, 'format'],
		[{ size: 'big' }, 'size'],
		[{ size: '1e3' }, 'size'],
		[{ size: '100.5' }, 'size'],
		[{ size: 63 }, 'size'],
		[{ size: '4097' }, 'size'],
		[{ mm: 'ten' }, 'mm'],
		[{ mm: '9.9' }, 'mm'],
		[{ mm: '1001' }, 'mm'],
		[{ mm: '50', dpi: 'high' }, 'dpi'],
		[{ mm: '50', dpi: '71' }, 'dpi'],
		[{ mm: '50', dpi: '1201' }, 'dpi'],
		[{ mm: '50', size: 'x' }, 'size'],
	])('rejects %j naming %s', (input, field) => {
		const parsed = parseImageOptions(input);
		expect(parsed.ok).toBe(false);
		expect(Object.keys(parsed.errors)).toEqual([field]);
		expect(parsed.errors[field][0]).toMatch(
			new RegExp(field === 'format' ? 'format' : `The ${field} field`),
		);
	});

	it('names every invalid field at once', () => {
		expect(
			Object.keys(parseImageOptions({ format: 'bmp', size: 'x', mm: '0', dpi: '0' }).errors),
		).toEqual(['format', 'size', 'mm', 'dpi']);
	});

	it('keeps a PNG from mm and dpi within the pixel limits, but not a vector file', () => {
		expect(parseImageOptions({ mm: '1000', dpi: '1200' }).errors.mm[0]).toMatch(/47244 pixels/);
		expect(parseImageOptions({ mm: '10', dpi: '72' }).errors.mm[0]).toMatch(/28 pixels/);
		expect(optionsFor({ format: 'eps', mm: '1000', dpi: '1200' })).toEqual({
			format: 'eps',
			mm: 1000,
			dpi: 1200,
		});
	});
});

describe('renderQr', () => {
	describe('png', () => {
		it.each([64, 333, 1024])('renders exactly %i pixels that decode to the text', async (size) => {
			const image = await renderQr(TEXT, optionsFor({ size }));
			expect(image.contentType).toBe('image/png');
			expect(image.extension).toBe('png');
			expect(decodePng(image.buffer)).toEqual({ width: size, height: size, text: TEXT });
		});

		it('renders round(mm / 25.4 * dpi) pixels and records the dpi', async () => {
			const image = await renderQr(TEXT, optionsFor({ mm: '50', dpi: '300' }));
			expect(decodePng(image.buffer)).toEqual({ width: 591, height: 591, text: TEXT });
			const phys = image.buffer.indexOf('pHYs');
			expect(image.buffer.readUInt32BE(phys + 4)).toBe(Math.round(300 / 0.0254));
			expect(image.buffer.readUInt8(phys + 12)).toBe(1);
		});

		it('refuses a size too small for the content, naming the field', async () => {
			const longText = `${TEXT}?${'x'.repeat(400)}`;
			await expect(renderQr(longText, optionsFor({ size: 64 }))).rejects.toThrow(ImageOptionsError);
			await expect(renderQr(longText, optionsFor({ size: 64 }))).rejects.toMatchObject({
				statusCode: 422,
				errors: { size: [expect.stringMatching(/at least \d+ pixels/)] },
			});
		});
	});

	describe('svg', () => {
		it('is an <svg> document sized in mm with a viewBox, and decodes to the text', async () => {
			const image = await renderQr(TEXT, optionsFor({ format: 'svg', mm: '30' }));
			expect(image).toMatchObject({ contentType: 'image/svg+xml', extension: 'svg' });
			const svg = parseSvg(image.buffer);
			expect(svg).toMatchObject({
				xmlns: 'http://www.w3.org/2000/svg',
				width: '30mm',
				height: '30mm',
			});
			expectPaintedCode(paintSvg(svg));
		});

		it('is sized in pixels without mm', async () => {
			const svg = parseSvg((await renderQr(TEXT, optionsFor({ format: 'svg', size: 512 }))).buffer);
			expect(svg).toMatchObject({ width: '512', height: '512' });
			expectPaintedCode(paintSvg(svg));
		});
	});

	describe('pdf', () => {
		it('has a valid xref table, a page of mm in points, and decodes to the text', async () => {
			const image = await renderQr(TEXT, optionsFor({ format: 'pdf', mm: '40' }));
			expect(image).toMatchObject({ contentType: 'application/pdf', extension: 'pdf' });
			expect(image.buffer.toString('latin1', 0, 5)).toBe('%PDF-');
			const { mediaBox, content } = pdfPage(image.buffer);
			const side = 40 * POINTS_PER_MM;
			expect(mediaBox[0]).toBe(0);
			expect(mediaBox[1]).toBe(0);
			expect(mediaBox[2]).toBeCloseTo(side, 4);
			expect(mediaBox[3]).toBeCloseTo(side, 4);
			expectPaintedCode(paintPage(content, mediaBox[2], PDF_OPERATORS));
		});

		it('takes one point per pixel without mm', async () => {
			const { mediaBox, content } = pdfPage(
				(await renderQr(TEXT, optionsFor({ format: 'pdf', size: 300 }))).buffer,
			);
			expect(mediaBox).toEqual([0, 0, 300, 300]);
			expectPaintedCode(paintPage(content, 300, PDF_OPERATORS));
		});
	});

	describe('eps', () => {
		it('has the EPSF header and a bounding box of mm in points, and decodes to the text', async () => {
			const image = await renderQr(TEXT, optionsFor({ format: 'eps', mm: '25' }));
			expect(image).toMatchObject({ contentType: 'application/postscript', extension: 'eps' });
			const { firstLine, boundingBox, hiResBoundingBox, body } = epsParts(image.buffer);
			const side = 25 * POINTS_PER_MM;
			expect(firstLine).toBe('%!PS-Adobe-3.0 EPSF-3.0');
			expect(boundingBox).toEqual([0, 0, Math.ceil(side), Math.ceil(side)]);
			expect(hiResBoundingBox[2]).toBeCloseTo(side, 4);
			expect(hiResBoundingBox[3]).toBeCloseTo(side, 4);
			expectPaintedCode(paintPage(body, hiResBoundingBox[2], EPS_OPERATORS));
		});
	});
});
