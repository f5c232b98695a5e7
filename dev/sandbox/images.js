'use strict';

// QR code images for the sandbox: option parsing for `/image` and static codes, and
// renderers for PNG, SVG, PDF and EPS that all draw the same module grid.

const zlib = require('node:zlib');
const QRCode = require('qrcode');
const { PNG } = require('pngjs');

const CONTENT_TYPES = {
	png: 'image/png',
	svg: 'image/svg+xml',
	pdf: 'application/pdf',
	eps: 'application/postscript',
};
const FORMATS = Object.keys(CONTENT_TYPES);
const DEFAULT_FORMAT = 'png';
const DEFAULT_SIZE = 1024;
const DEFAULT_DPI = 300;
const NUMBER_FIELDS = {
	size: { min: 64, max: 4096, integer: true },
	mm: { min: 10, max: 1000, integer: false },
	dpi: { min: 72, max: 1200, integer: true },
};
const QUIET_ZONE = 4; // light modules around the code, as the QR standard asks
const MM_PER_INCH = 25.4;
const POINTS_PER_INCH = 72;
const DECIMAL = /^[+-]?(\d+(\.\d*)?|\.\d+)$/;

/** A request asked for an image the content cannot fit; the server answers 422 with `errors`. */
class ImageOptionsError extends Error {
	constructor(field, message) {
		super(message);
		this.name = 'ImageOptionsError';
		this.statusCode = 422;
		this.errors = { [field]: [message] };
	}
}

function isAbsent(value) {
	return value === undefined || value === null || value === '';
}

function parseFormat(value, errors) {
	if (isAbsent(value)) return DEFAULT_FORMAT;
	if (FORMATS.includes(value)) return value;
	errors.format = [`The selected format is invalid. Use one of: ${FORMATS.join(', ')}.`];
	return undefined;
}

function toNumber(value) {
	if (typeof value === 'number') return value;
	return DECIMAL.test(String(value).trim()) ? Number(value) : NaN;
}

/** The reason a number is not acceptable for `field`, or undefined when it is. */
function numberProblem(field, number) {
	const { min, max, integer } = NUMBER_FIELDS[field];
	if (!Number.isFinite(number)) return `The ${field} field must be a number.`;
	if (integer && !Number.isInteger(number)) return `The ${field} field must be an integer.`;
	if (number < min || number > max) return `The ${field} field must be between ${min} and ${max}.`;
	return undefined;
}

function parseNumberField(field, value, errors) {
	if (isAbsent(value)) return undefined;
	const number = toNumber(value);
	const problem = numberProblem(field, number);
	if (problem === undefined) return number;
	errors[field] = [problem];
	return undefined;
}

/** The side of a PNG in pixels: `size`, or mm at dpi. */
function rasterPixels(options) {
	return options.mm === undefined
		? options.size
		: Math.round((options.mm / MM_PER_INCH) * options.dpi);
}

// A PNG sized by mm and dpi must still respect the pixel limits of `size`.
function checkPrintPixels(options, errors) {
	const { min, max } = NUMBER_FIELDS.size;
	const pixels = rasterPixels(options);
	if (pixels < min || pixels > max) {
		errors.mm = [
			`The mm field gives ${pixels} pixels at ${options.dpi} dpi; a PNG must be between ${min} and ${max} pixels. Change mm or dpi, or choose svg, pdf or eps.`,
		];
	}
}

/**
 * Reads `format`, `size`, `mm` and `dpi` (strings from a query or numbers from JSON).
 * Every given field is validated, even one that `mm` overrides.
 */
function parseImageOptions(input = {}) {
	const errors = {};
	const format = parseFormat(input.format, errors);
	const [size, mm, dpi] = ['size', 'mm', 'dpi'].map((field) =>
		parseNumberField(field, input[field], errors),
	);
	const options =
		mm === undefined
			? { format, size: size ?? DEFAULT_SIZE }
			: { format, mm, dpi: dpi ?? DEFAULT_DPI };
	if (format === 'png' && mm !== undefined && !errors.dpi) checkPrintPixels(options, errors);
	return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, options };
}

/** The code's modules including the quiet zone, as a square grid of booleans (true = dark). */
function moduleGrid(text) {
	const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
	const size = modules.size + 2 * QUIET_ZONE;
	const isDark = (row, col) => {
		const r = row - QUIET_ZONE;
		const c = col - QUIET_ZONE;
		return r >= 0 && c >= 0 && r < modules.size && c < modules.size && Boolean(modules.get(r, c));
	};
	return { size, isDark };
}

/** Horizontal runs of dark modules: fewer shapes for the vector formats to draw. */
function darkRuns(grid) {
	const runs = [];
	for (let row = 0; row < grid.size; row++) {
		for (let col = 0; col < grid.size; col++) {
			if (!grid.isDark(row, col)) continue;
			const start = col;
			while (col + 1 < grid.size && grid.isDark(row, col + 1)) col++;
			runs.push({ row, col: start, length: col - start + 1 });
		}
	}
	return runs;
}

function formatNumber(value) {
	return String(Number(value.toFixed(6)));
}

/** Physical side of a vector image in points: from mm, or one point per requested pixel. */
function sideInPoints(options) {
	return options.mm === undefined ? options.size : (options.mm * POINTS_PER_INCH) / MM_PER_INCH;
}

function sizeField(options) {
	return options.mm === undefined ? 'size' : 'mm';
}

// pHYs tells print software the intended dpi, so a PNG made from mm prints at that size.
function physicalSizeChunk(dpi) {
	const pixelsPerMetre = Math.round(dpi / (MM_PER_INCH / 1000));
	const typeAndData = Buffer.alloc(13);
	typeAndData.write('pHYs', 0, 'ascii');
	typeAndData.writeUInt32BE(pixelsPerMetre, 4);
	typeAndData.writeUInt32BE(pixelsPerMetre, 8);
	typeAndData.writeUInt8(1, 12); // unit: metre
	const length = Buffer.alloc(4);
	length.writeUInt32BE(9);
	const crc = Buffer.alloc(4);
	crc.writeUInt32BE(zlib.crc32(typeAndData));
	return Buffer.concat([length, typeAndData, crc]);
}

function insertAfterHeader(png, chunk) {
	const headerEnd = 8 + 25; // PNG signature, then the IHDR chunk (4 + 4 + 13 + 4 bytes)
	return Buffer.concat([png.subarray(0, headerEnd), chunk, png.subarray(headerEnd)]);
}

function renderPng(grid, options) {
	const pixels = rasterPixels(options);
	// Whole pixels per module keep every module the same width, which scanners rely on;
	// the pixels left over widen the light margin evenly.
	const scale = Math.floor(pixels / grid.size);
	if (scale < 1) {
		throw new ImageOptionsError(
			sizeField(options),
			`This code needs at least ${grid.size} pixels to stay readable; ${pixels} were asked for.`,
		);
	}
	const margin = Math.floor((pixels - scale * grid.size) / 2);
	const data = Buffer.alloc(pixels * pixels, 255);
	for (let row = 0; row < grid.size; row++) {
		const line = Buffer.alloc(pixels, 255);
		for (let col = 0; col < grid.size; col++) {
			if (grid.isDark(row, col)) line.fill(0, margin + col * scale, margin + (col + 1) * scale);
		}
		const top = margin + row * scale;
		for (let y = top; y < top + scale; y++) line.copy(data, y * pixels);
	}
	// Rows repeat, so the Up filter alone compresses well (pngjs's per-row filter search is slow).
	const png = PNG.sync.write(
		{ width: pixels, height: pixels, data },
		{ colorType: 0, inputColorType: 0, inputHasAlpha: false, filterType: 2 },
	);
	return options.mm === undefined ? png : insertAfterHeader(png, physicalSizeChunk(options.dpi));
}

function renderSvg(grid, options) {
	const side = options.mm === undefined ? String(options.size) : `${formatNumber(options.mm)}mm`;
	const path = darkRuns(grid)
		.map(({ row, col, length }) => `M${col} ${row}h${length}v1h-${length}z`)
		.join('');
	const svg = [
		'<?xml version="1.0" encoding="UTF-8"?>',
		`<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${grid.size} ${grid.size}" shape-rendering="crispEdges">`,
		`<rect width="${grid.size}" height="${grid.size}" fill="#ffffff"/>`,
		`<path fill="#000000" d="${path}"/>`,
		'</svg>',
		'',
	].join('\n');
	return Buffer.from(svg, 'utf8');
}

function renderPdf(grid, options) {
	const side = formatNumber(sideInPoints(options));
	const scale = formatNumber(sideInPoints(options) / grid.size);
	// White page, then a flipped coordinate system in module units so rows count downwards.
	const content = [
		'q',
		`1 g 0 0 ${side} ${side} re f`,
		`${scale} 0 0 -${scale} 0 ${side} cm`,
		'0 g',
		...darkRuns(grid).map(({ row, col, length }) => `${col} ${row} ${length} 1 re`),
		'f',
		'Q',
		'',
	].join('\n');
	const objects = [
		'<< /Type /Catalog /Pages 2 0 R >>',
		'<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
		`<< /Type /Page /Parent 2 0 R /MediaBox [0 0 ${side} ${side}] /Resources << >> /Contents 4 0 R >>`,
		`<< /Length ${Buffer.byteLength(content)} >>\nstream\n${content}endstream`,
	];
	return assemblePdf(objects);
}

/** Numbers the objects from 1 and writes the xref table with their byte offsets. */
function assemblePdf(objects) {
	let pdf = '%PDF-1.4\n';
	const offsets = objects.map((body, index) => {
		const offset = Buffer.byteLength(pdf);
		pdf += `${index + 1} 0 obj\n${body}\nendobj\n`;
		return offset;
	});
	const xrefOffset = Buffer.byteLength(pdf);
	const entries = offsets
		.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`)
		.join('');
	pdf += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${entries}`;
	pdf += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xrefOffset}\n%%EOF\n`;
	return Buffer.from(pdf, 'latin1');
}

function renderEps(grid, options) {
	const points = sideInPoints(options);
	const side = formatNumber(points);
	const scale = formatNumber(points / grid.size);
	const eps = [
		'%!PS-Adobe-3.0 EPSF-3.0',
		`%%BoundingBox: 0 0 ${Math.ceil(points)} ${Math.ceil(points)}`,
		`%%HiResBoundingBox: 0 0 ${side} ${side}`,
		'%%Title: QR code',
		'%%Creator: Dynamic QR Code Service sandbox',
		'%%LanguageLevel: 2',
		'%%EndComments',
		'gsave',
		`1 setgray 0 0 ${side} ${side} rectfill`,
		`0 ${side} translate ${scale} -${scale} scale`,
		'0 setgray',
		...darkRuns(grid).map(({ row, col, length }) => `${col} ${row} ${length} 1 rectfill`),
		'grestore',
		'showpage',
		'%%EOF',
		'',
	].join('\n');
	return Buffer.from(eps, 'latin1');
}

const RENDERERS = { png: renderPng, svg: renderSvg, pdf: renderPdf, eps: renderEps };

/**
 * Draws `text` as a QR code (error correction M) in the format and size of `options`
 * (as returned by parseImageOptions). Throws ImageOptionsError when the content needs more
 * pixels than a PNG was given.
 */
async function renderQr(text, options) {
	const buffer = RENDERERS[options.format](moduleGrid(text), options);
	return { buffer, contentType: CONTENT_TYPES[options.format], extension: options.format };
}

module.exports = { parseImageOptions, renderQr, ImageOptionsError };
