'use strict';

// startSandbox(): a local, in-memory stand-in for the Dynamic QR Code Service (see README.md).

const http = require('node:http');
const { createClock } = require('./clock');
const { createState } = require('./state');
const { createRateLimiter } = require('./rate-limiter');
const { createFaults } = require('./faults');
const { WebhookDispatcher } = require('./webhooks');
const { buildOpenApi } = require('./api-docs');
const { createApiHandler } = require('./api-server');
const { createReadings } = require('./readings');
const { createControlHandler } = require('./control-api');
const { createPublicHandler } = require('./public-site');
const { accountRoutes } = require('./api-account');
const { qrCodeRoutes } = require('./api-qr-codes');
const { imageRoutes } = require('./api-images');
const { scanRoutes } = require('./scans');
const { uploadRoutes } = require('./api-uploads');
const { cardRoutes } = require('./api-cards');
const { webhookRoutes } = require('./api-webhooks');
const { startCdn, redirectImagesToCdn } = require('./cdn');

const API_PREFIX = '/api/v1';
const CONTROL_PREFIX = '/__sandbox';
const DUE_DELIVERY_INTERVAL_MS = 1000;

function createUrls(host, port) {
	const urlHost =
		host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
	const siteUrl = `http://${urlHost}:${port}`;
	const standardDomain = `${urlHost}:${port}`;
	// A second redirect domain the workspace may choose with `domain` on create.
	const secondDomain = urlHost === 'localhost' ? `127.0.0.1:${port}` : `localhost:${port}`;
	return {
		siteUrl,
		baseUrl: `${siteUrl}${API_PREFIX}`,
		openApiUrl: `${siteUrl}/developers/openapi.json`,
		standardDomain,
		domains: [standardDomain, secondDomain],
		shortUrl: (domain, slug) => `http://${domain}/s/${slug}`,
		pageUrl: (id) => `${siteUrl}/p/${id}`,
		cardPageUrl: (id) => `${siteUrl}/c/${id}`,
	};
}

function listen(server, port, host) {
	return new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(port, host, () => {
			server.off('error', reject);
			resolve(server.address().port);
		});
	});
}

function positiveNumber(name, value) {
	if (typeof value !== 'number' || !(value > 0))
		throw new TypeError(`${name} must be a number above 0 (got ${value}).`);
	return value;
}

/** Strips a prefix only at a path-segment boundary: /api/v1x is not /api/v1. */
function pathUnder(prefix, pathname) {
	if (pathname === prefix) return '/';
	return pathname.startsWith(`${prefix}/`) ? pathname.slice(prefix.length) : null;
}

/**
 * @param {object} [options]
 * @param {string} [options.host='127.0.0.1']
 * @param {number} [options.port=0] 0 picks a free port
 * @param {number} [options.rateLimitPerMinute=6000]
 * @param {number} [options.rateLimitBurst] default: one minute's worth
 * @param {number} [options.latencyMs=0] delay before every API answer
 * @param {string[]} [options.readings] other readings of what the reference leaves open to answer
 *   with (readings/); none by default. The control API's PUT /readings changes them later.
 * @param {(line: string) => void} [options.log] where failures and notes go (default: nowhere)
 * @returns {Promise<{ siteUrl, baseUrl, keys, cardId, clock, control, close }>}
 */
async function startSandbox(options = {}) {
	const {
		host = '127.0.0.1',
		port = 0,
		rateLimitPerMinute = 6000,
		rateLimitBurst,
		latencyMs = 0,
		log = () => {},
	} = options;
	const initialReadings = options.readings ?? [];
	const readings = createReadings(initialReadings);
	positiveNumber('rateLimitPerMinute', rateLimitPerMinute);
	if (rateLimitBurst !== undefined) positiveNumber('rateLimitBurst', rateLimitBurst);

	const clock = createClock();
	const state = createState(clock);
	const outbox = [];
	const faults = createFaults({ latencyMs });
	const dispatcher = new WebhookDispatcher({ clock, outbox, readings, faults });
	const limiter = createRateLimiter(clock, {
		perMinute: rateLimitPerMinute,
		burst: rateLimitBurst,
	});

	const server = http.createServer();
	const boundPort = await listen(server, port, host);
	const urls = createUrls(host, boundPort);
	// The image-redirect-cdn reading's other origin; idle unless that reading is on.
	const cdn = await startCdn({ host, urlHost: new URL(urls.siteUrl).hostname });
	const ctx = {
		clock,
		state,
		outbox,
		dispatcher,
		limiter,
		faults,
		urls,
		log,
		readings,
		initialReadings,
		cdn,
	};
	const info = {
		siteUrl: urls.siteUrl,
		baseUrl: urls.baseUrl,
		keys: { ...state.keys },
		cardId: state.card.id,
	};

	const routes = redirectImagesToCdn(
		[
			...accountRoutes(ctx),
			...qrCodeRoutes(ctx),
			...imageRoutes(ctx),
			...scanRoutes(ctx),
			...cardRoutes(ctx),
			...webhookRoutes(ctx),
			...uploadRoutes(ctx),
		],
		ctx,
	);
	const handleApi = createApiHandler(ctx, routes);
	const handleControl = createControlHandler(ctx, info);
	const handlePublic = createPublicHandler(ctx, buildOpenApi(routes, urls));

	server.on('request', (req, res) => {
		const url = new URL(req.url, urls.siteUrl);
		const apiPath = pathUnder(API_PREFIX, url.pathname);
		if (apiPath !== null) return handleApi(req, res, url, apiPath);
		const controlPath = pathUnder(CONTROL_PREFIX, url.pathname);
		if (controlPath !== null) return handleControl(req, res, url, controlPath);
		return handlePublic(req, res, url);
	});

	// Retries come due on the clock; checking every second keeps a running sandbox delivering them.
	const timer = setInterval(() => {
		dispatcher
			.runDue()
			.catch((error) => log(`sandbox: webhook retry run failed: ${error.stack || error}`));
	}, DUE_DELIVERY_INTERVAL_MS);
	timer.unref();

	async function control(method, path, body) {
		const response = await fetch(`${urls.siteUrl}${CONTROL_PREFIX}${path}`, {
			method,
			headers: body === undefined ? {} : { 'Content-Type': 'application/json' },
			body: body === undefined ? undefined : JSON.stringify(body),
		});
		const answer = await response.json();
		if (!response.ok) {
			const error = new Error(
				`Sandbox control ${method} ${path} answered ${response.status}: ${answer.message}`,
			);
			Object.assign(error, { status: response.status, body: answer });
			throw error;
		}
		return answer;
	}

	async function close() {
		clearInterval(timer);
		dispatcher.close();
		await cdn.close();
		await new Promise((resolve) => {
			server.close(() => resolve());
			server.closeAllConnections();
		});
	}

	return { ...info, keys: { ...state.keys }, clock, control, close };
}

module.exports = { startSandbox };
