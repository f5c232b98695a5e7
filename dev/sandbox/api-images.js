'use strict';

// Images: a saved code's image (GET /qr-codes/{id}/image) and static codes (POST /static-qr-codes).

const { parseImageOptions, renderQr } = require('./images');
const { QR_TYPES, STATIC_TYPE_NAMES, validatePayload } = require('./qr-types');
const { publicRecord, findCode } = require('./qr-code-records');
const { ApiError, invalid } = require('./http-util');
const { ID_PARAM, IMAGE_QUERY } = require('./api-docs');

const IMAGE_FIELDS = ['format', 'size', 'mm', 'dpi'];
const STATIC_FIELDS = ['type', 'payload', ...IMAGE_FIELDS];

function imageOptions(source) {
	const input = {};
	for (const field of IMAGE_FIELDS) if (source[field] !== undefined) input[field] = source[field];
	const parsed = parseImageOptions(input);
	if (!parsed.ok) throw invalid(parsed.errors);
	return parsed.options;
}

async function imageAnswer(text, options, filename) {
	let image;
	try {
		image = await renderQr(text, options);
	} catch (error) {
		if (error.errors) throw new ApiError(422, error.message, error.errors);
		throw invalid({ payload: `The content does not fit in a QR code (${error.message}).` });
	}
	return {
		status: 200,
		buffer: image.buffer,
		contentType: image.contentType,
		headers: { 'Content-Disposition': `attachment; filename="${filename}.${image.extension}"` },
	};
}

function staticContent(body) {
	const errors = {};
	for (const field of Object.keys(body)) {
		if (!STATIC_FIELDS.includes(field))
			errors[field] = `${field} is not accepted; send only: ${STATIC_FIELDS.join(', ')}.`;
	}
	const type = QR_TYPES[body.type];
	if (body.type === undefined) errors.type = 'The type field is required.';
	else if (!type) errors.type = `type must be one of: ${STATIC_TYPE_NAMES.join(', ')}.`;
	else if (!type.staticText) {
		errors.type = `Type ${body.type} needs the service's redirects and exists only as a dynamic code (POST /qr-codes). Static types: ${STATIC_TYPE_NAMES.join(', ')}.`;
	}
	if (body.payload === undefined || body.payload === null)
		errors.payload = 'The payload field is required.';
	else if (type && type.staticText)
		Object.assign(errors, validatePayload(body.type, body.payload, { forStatic: true }).errors);
	if (Object.keys(errors).length) throw invalid(errors);
	return type.staticText(body.payload);
}

function imageRoutes({ state, urls }) {
	return [
		{
			method: 'GET',
			path: '/qr-codes/{id}/image',
			params: [ID_PARAM],
			query: IMAGE_QUERY,
			summary: "Download the code's image (encodes its short link)",
			success: { status: 200, description: 'The image file', binary: true },
			handle({ workspace, params, query }) {
				const code = findCode(state, workspace, params.id);
				const options = imageOptions(query);
				return imageAnswer(publicRecord(code, urls).short_url, options, `qr-${code.id}`);
			},
		},
		{
			method: 'POST',
			path: '/static-qr-codes',
			write: true,
			body: 'json',
			summary: 'Render a static QR code for one of 12 types; nothing is saved',
			bodySchema: {
				type: 'object',
				required: ['type', 'payload'],
				properties: {
					type: { type: 'string', enum: STATIC_TYPE_NAMES },
					payload: { type: 'object' },
					format: { type: 'string', enum: ['png', 'svg', 'pdf', 'eps'] },
					size: { type: 'integer' },
					mm: { type: 'number' },
					dpi: { type: 'integer' },
				},
			},
			success: { status: 200, description: 'The image file', binary: true },
			handle({ body }) {
				const text = staticContent(body);
				return imageAnswer(text, imageOptions(body), `static-${body.type}`);
			},
		},
	];
}

module.exports = { imageRoutes };
