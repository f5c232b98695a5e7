'use strict';

// The /api/v1 pipeline: latency, key check, injected 429s, rate limit, route, write check,
// body parsing, the active readings (readings/), answer, request log. Route handlers only see an authenticated workspace.

const { createRouteTable } = require('./routes');
const {
	ApiError,
	readBody,
	parseJsonBody,
	sendJson,
	send,
	errorAnswer,
	sleep,
} = require('./http-util');

const MESSAGES = {
	missingKey: 'Missing API key. Send it in the header Authorization: Bearer <API_KEY>.',
	unknownKey:
		"The API key is not valid. Check that it was copied completely from the dashboard's developer settings.",
	revokedKey: "This API key was revoked. Create a new key in the dashboard's developer settings.",
	noApi: (plan) =>
		`The ${plan} plan has no API access. Move the workspace to a plan with API access to use this key.`,
	readOnly:
		"This API key is read-only. Create a read-write key in the dashboard's developer settings.",
	tooMany: (seconds) => `Too many requests. Wait ${seconds} seconds (Retry-After) and try again.`,
};

function authenticate(req, state) {
	const header = req.headers.authorization;
	const challenge = { 'WWW-Authenticate': 'Bearer' };
	if (!header) throw new ApiError(401, MESSAGES.missingKey, {}, challenge);
	const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
	const keyRecord = match && state.keyRecords.get(match[1]);
	if (!keyRecord) throw new ApiError(401, MESSAGES.unknownKey, {}, challenge);
	if (keyRecord.revoked) throw new ApiError(401, MESSAGES.revokedKey, {}, challenge);
	if (!keyRecord.workspace.plan.api_access)
		throw new ApiError(403, MESSAGES.noApi(keyRecord.workspace.plan.name));
	return { apiKey: match[1], keyRecord };
}

function tooManyRequests(retryAfter) {
	return new ApiError(429, MESSAGES.tooMany(retryAfter), {}, { 'Retry-After': String(retryAfter) });
}

/** `open` counts this server's API requests received and not yet answered (or dropped). */
function logRequest(state, clock, req, res, url, path, flight) {
	flight.open += 1;
	const entry = {
		method: req.method,
		path,
		query: Object.fromEntries(url.searchParams),
		status: null, // stays null when the answer never left (a dropped connection)
		idempotency_key: req.headers['idempotency-key'] ?? null,
		at: clock.iso(),
		// Requests open at this one's arrival, itself included: how many a client had in flight.
		in_flight: flight.open,
	};
	state.requests.push(entry);
	res.on('finish', () => {
		entry.status = res.statusCode;
	});
	res.on('close', () => {
		flight.open -= 1;
	});
}

function sendAnswer(res, answer, headers) {
	const allHeaders = { ...headers, ...answer.headers };
	if (answer.buffer)
		send(res, answer.status, answer.buffer, { 'Content-Type': answer.contentType, ...allHeaders });
	else sendJson(res, answer.status, answer.json, allHeaders);
}

function createApiHandler(ctx, routes) {
	const { state, clock, faults, limiter, urls, log, readings } = ctx;
	const table = createRouteTable(routes);
	const flight = { open: 0 };

	return async function handleApi(req, res, url, path) {
		logRequest(state, clock, req, res, url, path, flight);
		let headers = {};
		// What readings see of the request; the route's details are added once it is found.
		let call = { method: req.method, path, headers: req.headers };
		/** A JSON error answer (the sandbox's or a reading's) as the active readings shape it. */
		const shaped = (answer) =>
			answer.status >= 400 && answer.json ? readings.error(call, answer) : answer;
		try {
			const rawBody = await readBody(req);
			const delayMs = faults.delayMs();
			if (delayMs > 0) await sleep(delayMs);
			const { apiKey, keyRecord } = authenticate(req, state);
			const injectedRetryAfter = faults.take429();
			if (injectedRetryAfter !== null) {
				headers = limiter.headersFor(apiKey);
				throw tooManyRequests(injectedRetryAfter);
			}
			const limit = limiter.take(apiKey);
			headers = { ...limit.headers };
			if (readings.isActive('rate-limit-remaining-only')) delete headers['X-RateLimit-Limit'];
			if (!limit.allowed) throw tooManyRequests(limit.retryAfter);

			const found = table.find(req.method, path);
			if (!found)
				throw new ApiError(
					404,
					`There is no ${req.method} ${path} endpoint. See ${urls.openApiUrl}.`,
				);
			const { route, params } = found;
			if (route.write && keyRecord.access !== 'read_write')
				throw new ApiError(403, MESSAGES.readOnly);

			const query = Object.fromEntries(url.searchParams);
			const body =
				route.body === 'json' ? parseJsonBody(rawBody, req.headers['content-type']) : undefined;
			// Another reading of what the reference leaves open may answer first, or reshape the answer.
			call = {
				...call,
				route: route.path,
				params,
				query,
				body,
				workspace: keyRecord.workspace,
			};
			const early = readings.before(call);
			if (early) return sendAnswer(res, shaped(early), headers);
			const answer = readings.after(
				call,
				await route.handle({
					req,
					apiKey,
					keyRecord,
					workspace: keyRecord.workspace,
					params,
					query,
					body,
					rawBody,
					listUrl: `${urls.baseUrl}${path}`,
				}),
			);
			if (answer.dropConnection) {
				req.socket.destroy(); // the change is committed, but the client never hears of it
				return;
			}
			sendAnswer(res, answer, headers);
		} catch (error) {
			if (error instanceof ApiError) {
				return sendAnswer(res, shaped(errorAnswer(error)), headers);
			}
			log(`sandbox: ${req.method} ${path} failed: ${error.stack || error}`);
			sendJson(
				res,
				500,
				{ message: 'The sandbox failed on this request; see its log.', errors: {} },
				headers,
			);
		}
	};
}

module.exports = { createApiHandler };
