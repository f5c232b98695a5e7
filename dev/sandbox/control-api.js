'use strict';

// {siteUrl}/__sandbox/...: the test-only side door. No key, no rate limit, JSON in and out.

const { createRouteTable } = require('./routes');
const { publicRecord } = require('./qr-code-records');
const { recordScan } = require('./scans');
const { addCard, addLead, cardRecord } = require('./api-cards');
const { isBot, parseUserAgent } = require('./user-agent');
const { checkIsoDateTime } = require('./validators');
const {
	ApiError,
	invalid,
	notFound,
	readBody,
	parseJsonBody,
	sendJson,
	sendApiError,
} = require('./http-util');

const SCAN_FIELDS = ['country', 'city', 'device', 'os', 'browser', 'language', 'referrer'];

function controlRoutes(ctx, info) {
	const {
		state,
		clock,
		urls,
		dispatcher,
		outbox,
		faults,
		limiter,
		readings,
		initialReadings,
		cdn,
	} = ctx;

	function simulateScan({ body }) {
		const code = state.codes.find((c) => c.id === body.qr_code_id && !c.deleted_at);
		if (!code) throw notFound('QR code');
		if (body.scanned_at !== undefined && checkIsoDateTime(body.scanned_at)) {
			throw invalid({ scanned_at: `scanned_at ${checkIsoDateTime(body.scanned_at)}` });
		}
		// As on the short link: bots and paused codes record nothing.
		if (isBot(body.user_agent) || code.paused) return { data: null };
		const details = { ...(body.user_agent ? parseUserAgent(body.user_agent) : {}) };
		for (const field of SCAN_FIELDS) if (body[field] !== undefined) details[field] = body[field];
		if (body.scanned_at) details.scanned_at = new Date(body.scanned_at).toISOString();
		return { data: recordScan(ctx, code, details) };
	}

	async function advanceClock({ body }) {
		if (typeof body.seconds !== 'number' || body.seconds < 0)
			throw invalid({ seconds: 'seconds must be a number of at least 0.' });
		clock.advance(body.seconds * 1000);
		await dispatcher.runDue();
		return { now: clock.iso() };
	}

	/**
	 * What the API cannot change: `archived`, and `created_at` (to backdate a code, e.g. one never
	 * scanned that has been quiet for days). Either or both.
	 */
	function setCodeState({ params, body }) {
		const code = state.codes.find((c) => c.id === params.id && !c.deleted_at);
		if (!code) throw notFound('QR code');
		if (body.archived === undefined && body.created_at === undefined)
			throw invalid({ archived: 'Send archived (true or false) and/or created_at.' });
		if (body.archived !== undefined && typeof body.archived !== 'boolean')
			throw invalid({ archived: 'archived must be true or false.' });
		if (body.created_at !== undefined && checkIsoDateTime(body.created_at))
			throw invalid({ created_at: `created_at ${checkIsoDateTime(body.created_at)}` });
		if (body.created_at !== undefined) code.created_at = new Date(body.created_at).toISOString();
		if (body.archived !== undefined && code.archived !== body.archived) {
			code.archived = body.archived;
			code.updated_at = clock.iso();
			dispatcher.emit(
				state.workspaceById(code.workspaceId),
				'qr_code.updated',
				publicRecord(code, urls),
			);
		}
		return { data: publicRecord(code, urls) };
	}

	async function resendDelivery({ params }) {
		let resent;
		try {
			resent = await dispatcher.resend(params.id);
		} catch (error) {
			if (error.code === 'ENDPOINT_GONE') throw invalid({ endpoint_id: error.message });
			throw error;
		}
		if (!resent) throw notFound('Delivery');
		return { data: resent };
	}

	function setConfig({ body }) {
		const errors = {};
		for (const name of ['rateLimitPerMinute', 'rateLimitBurst']) {
			if (body[name] !== undefined && !(typeof body[name] === 'number' && body[name] > 0)) {
				errors[name] = `${name} must be a number above 0.`;
			}
		}
		if (Object.keys(errors).length) throw invalid(errors);
		const config = limiter.configure({
			perMinute: body.rateLimitPerMinute,
			burst: body.rateLimitBurst,
		});
		return { rateLimitPerMinute: config.perMinute, rateLimitBurst: config.burst };
	}

	function setReadings({ body }) {
		if (!Array.isArray(body.names) || !body.names.every((name) => typeof name === 'string')) {
			throw invalid({ names: ['names must be a list of reading names.'] });
		}
		try {
			readings.set(body.names);
		} catch (error) {
			throw invalid({ names: [error.message] });
		}
		return { data: readings.list() };
	}

	function reset() {
		state.reset();
		readings.set(initialReadings);
		dispatcher.reset();
		outbox.length = 0;
		faults.reset();
		limiter.reset();
		cdn.reset();
		return { reset: true };
	}

	return [
		{ method: 'GET', path: '/info', handle: () => info },
		{ method: 'POST', path: '/scans', handle: simulateScan },
		{
			method: 'POST',
			path: '/cards',
			handle: ({ body }) => ({ data: cardRecord(addCard(ctx, body), urls) }),
		},
		{
			method: 'POST',
			path: '/leads',
			handle: ({ body }) => ({ data: addLead(ctx, body.card_id || state.card.id, body) }),
		},
		{
			method: 'GET',
			path: '/deliveries',
			handle: ({ query }) => ({
				data: dispatcher.listDeliveries({ endpointId: query.endpoint_id, type: query.type }),
			}),
		},
		{ method: 'POST', path: '/deliveries/{id}/resend', handle: resendDelivery },
		{ method: 'POST', path: '/clock/advance', handle: advanceClock },
		{ method: 'GET', path: '/outbox', handle: () => ({ data: outbox }) },
		{ method: 'GET', path: '/faults', handle: () => faults.get() },
		{ method: 'POST', path: '/faults', handle: ({ body }) => faults.set(body) },
		{
			method: 'GET',
			path: '/config',
			handle: () => ({
				rateLimitPerMinute: limiter.config().perMinute,
				rateLimitBurst: limiter.config().burst,
			}),
		},
		{ method: 'POST', path: '/config', handle: setConfig },
		{ method: 'GET', path: '/readings', handle: () => ({ data: readings.list() }) },
		{ method: 'PUT', path: '/readings', handle: setReadings },
		{
			method: 'GET',
			path: '/qr-codes',
			handle: () => ({
				data: state.codes.map((code) => ({
					...publicRecord(code, urls, { withDesign: true }),
					workspace_id: code.workspaceId,
					deleted: Boolean(code.deleted_at),
				})),
			}),
		},
		{ method: 'PATCH', path: '/qr-codes/{id}', handle: setCodeState },
		{ method: 'GET', path: '/webhooks', handle: () => ({ data: dispatcher.allEndpoints() }) },
		{
			// Pauses an endpoint as 20 failed events in a row would, without waiting for them.
			method: 'POST',
			path: '/webhooks/{id}/pause',
			handle({ params }) {
				if (!dispatcher.pauseById(params.id)) throw notFound('webhook endpoint');
				return { data: dispatcher.allEndpoints().find((endpoint) => endpoint.id === params.id) };
			},
		},
		{
			// Resumes a paused endpoint, as its owner can in the dashboard.
			method: 'POST',
			path: '/webhooks/{id}/resume',
			handle({ params }) {
				if (!dispatcher.resumeById(params.id)) throw notFound('webhook endpoint');
				return { data: dispatcher.allEndpoints().find((endpoint) => endpoint.id === params.id) };
			},
		},
		// `?from=N`: only the requests after the first N (a long log is costly to send whole).
		{
			method: 'GET',
			path: '/requests',
			handle: ({ query }) => ({ data: state.requests.slice(Number(query.from) || 0) }),
		},
		// What the image-redirect-cdn reading's CDN received: method, URL and every header.
		{
			method: 'GET',
			path: '/cdn/requests',
			handle: () => ({ origin: cdn.origin, data: cdn.requests() }),
		},
		{ method: 'POST', path: '/reset', handle: reset },
	];
}

function createControlHandler(ctx, info) {
	const table = createRouteTable(controlRoutes(ctx, info));
	return async function handleControl(req, res, url, path) {
		try {
			const found = table.find(req.method, path);
			if (!found)
				throw new ApiError(404, `There is no control endpoint ${req.method} /__sandbox${path}.`);
			const body = parseJsonBody(
				await readBody(req),
				req.headers['content-type'] || 'application/json',
			);
			const answer = await found.route.handle({
				body,
				params: found.params,
				query: Object.fromEntries(url.searchParams),
			});
			sendJson(res, 200, answer);
		} catch (error) {
			if (error instanceof ApiError) return sendApiError(res, error);
			ctx.log(`sandbox: control ${req.method} ${path} failed: ${error.stack || error}`);
			sendJson(res, 500, { message: String(error.message || error), errors: {} });
		}
	};
}

module.exports = { createControlHandler };
