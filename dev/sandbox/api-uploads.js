'use strict';

// POST /uploads/logos: multipart/form-data with the image in the field `file`.

const { parseMultipart } = require('./multipart');
const { MAX_LOGO_BYTES, detectLogoType } = require('./logo-uploads');
const { invalid } = require('./http-util');
const { newId } = require('./ids');

function logoFile(rawBody, contentType) {
	const parts = parseMultipart(rawBody, contentType);
	if (!parts) {
		throw invalid({
			file: 'Send the logo as multipart/form-data with the image in the field "file".',
		});
	}
	const file = parts.find((part) => part.name === 'file' && part.filename !== undefined);
	if (!file)
		throw invalid({
			file: 'The file field is required (a PNG, JPEG or SVG image as a file part named "file").',
		});
	if (file.data.length === 0) throw invalid({ file: 'The file is empty.' });
	if (file.data.length > MAX_LOGO_BYTES) {
		throw invalid({
			file: `The logo is ${file.data.length} bytes; the limit is ${MAX_LOGO_BYTES} bytes (2 MB).`,
		});
	}
	const contentTypeFound = detectLogoType(file.data);
	if (!contentTypeFound) throw invalid({ file: 'The logo must be a PNG, JPEG or SVG image.' });
	return {
		filename: file.filename || 'logo',
		contentType: contentTypeFound,
		size: file.data.length,
	};
}

function uploadRoutes({ state, clock }) {
	return [
		{
			method: 'POST',
			path: '/uploads/logos',
			write: true,
			body: 'multipart',
			summary: 'Upload a logo (PNG, JPEG or SVG, at most 2 MB) for design.logo_upload_id',
			success: {
				status: 201,
				description: 'The upload record; its id goes into design.logo_upload_id',
			},
			handle({ workspace, rawBody, req }) {
				const file = logoFile(rawBody, req.headers['content-type']);
				const upload = {
					id: newId(),
					object: 'logo_upload',
					filename: file.filename,
					content_type: file.contentType,
					size: file.size,
					created_at: clock.iso(),
				};
				state.uploads.push({ ...upload, workspaceId: workspace.id });
				return { status: 201, json: { data: upload } };
			},
		},
	];
}

/**
 * For readings (readings/logo-upload-*.js): an `after` hook that gives a successful logo upload
 * answer another shape, `reshape(upload record)`.
 */
function reshapeLogoUpload(reshape) {
	return (call, answer) => {
		const isUpload = call.method === 'POST' && call.route === '/uploads/logos';
		return isUpload && answer.status === 201
			? { ...answer, json: reshape(answer.json.data) }
			: answer;
	};
}

module.exports = { uploadRoutes, reshapeLogoUpload };
