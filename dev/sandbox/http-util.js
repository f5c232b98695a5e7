'use strict';

const MAX_BODY_BYTES = 10 * 1024 * 1024;

/** An error that becomes an API answer `{ message, errors }` with its status. */
class ApiError extends Error {
	constructor(status, message, errors = {}, headers = {}) {
		super(message);
		this.status = status;
		this.errors = errors;
		this.headers = headers;
	}
}

/** 422 naming one or more fields: `invalid({ 'payload.url': 'must be a URL' })`. */
function invalid(fieldMessages, message) {
	const errors = {};
	for (const [field, text] of Object.entries(fieldMessages)) {
		errors[field] = Array.isArray(text) ? text : [text];
	}
	const messages = Object.values(errors).flat();
	const summary =
		messages.length > 1 ? `${messages[0]} (and ${messages.length - 1} more errors)` : messages[0];
	return new ApiError(422, message || summary, errors);
}

const notFound = (what = 'record') => new ApiError(404, `No such ${what} in this account.`);

function readBody(req, limit = MAX_BODY_BYTES) {
	return new Promise((resolve, reject) => {
		const chunks = [];
		let size = 0;
		req.on('data', (chunk) => {
			size += chunk.length;
			if (size <= limit) chunks.push(chunk);
		});
		req.on('end', () => {
			if (size > limit)
				reject(new ApiError(413, `The request body is larger than ${limit} bytes.`));
			else resolve(Buffer.concat(chunks));
		});
		req.on('error', reject);
	});
}

const isJsonContentType = (type) => /^application\/([\w.+-]+\+)?json\b/i.test(type || '');

/** Parses a JSON request body; an empty body is `{}`. */
function parseJsonBody(raw, contentType) {
	if (raw.length === 0) return {};
	if (!isJsonContentType(contentType)) {
		throw invalid({
			body: 'Send the body as JSON with the header Content-Type: application/json.',
		});
	}
	let parsed;
	try {
		parsed = JSON.parse(raw.toString('utf8'));
	} catch {
		throw invalid({ body: 'The request body is not valid JSON.' });
	}
	if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
		throw invalid({ body: 'The request body must be a JSON object.' });
	}
	return parsed;
}

function send(res, status, body, headers = {}) {
	if (res.headersSent || res.destroyed) return;
	res.writeHead(status, headers);
	res.end(body);
}

function sendJson(res, status, value, headers = {}) {
	if (status === 204) return send(res, 204, undefined, headers);
	send(res, status, JSON.stringify(value), {
		'Content-Type': 'application/json; charset=utf-8',
		...headers,
	});
}

function sendHtml(res, status, html, headers = {}) {
	send(res, status, html, { 'Content-Type': 'text/html; charset=utf-8', ...headers });
}

/** The answer an ApiError gives: `{ message, errors }` with its status and headers. */
const errorAnswer = (error) => ({
	status: error.status,
	json: { message: error.message, errors: error.errors },
	headers: error.headers,
});

function sendApiError(res, error, headers = {}) {
	const answer = errorAnswer(error);
	sendJson(res, answer.status, answer.json, { ...headers, ...answer.headers });
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

module.exports = {
	ApiError,
	invalid,
	notFound,
	readBody,
	parseJsonBody,
	sendJson,
	sendHtml,
	send,
	sendApiError,
	errorAnswer,
	sleep,
};
