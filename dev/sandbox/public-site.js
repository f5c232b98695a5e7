'use strict';

// What the service's public site and short domain serve: short links, code and card pages,
// the dashboard's page of a code or card, and the OpenAPI document.

const { createRouteTable } = require('./routes');
const { destinationFor } = require('./qr-types');
const { isBot, parseUserAgent } = require('./user-agent');
const { recordScan, scanDetailsFromRequest } = require('./scans');
const { notFoundPage, pausedPage, codePage, cardPage, dashboardPage } = require('./pages');
const { publicRecord } = require('./qr-code-records');
const { cardRecord } = require('./api-cards');
const { sendHtml, sendJson, send } = require('./http-util');

const NO_STORE = { 'Cache-Control': 'no-store' };

function createPublicHandler(ctx, openApiDocument) {
	const { state, urls } = ctx;
	const liveCode = (predicate) => state.codes.find((code) => predicate(code) && !code.deleted_at);

	function followShortLink(req, res, { slug }) {
		const card = state.cards.find((c) => c.slug === slug);
		if (card)
			return send(res, 302, undefined, { Location: urls.cardPageUrl(card.id), ...NO_STORE });
		const code = liveCode((c) => c.slug === slug);
		if (!code) return sendHtml(res, 404, notFoundPage(), NO_STORE);
		if (code.paused) return sendHtml(res, 200, pausedPage(code), NO_STORE);
		const userAgent = req.headers['user-agent'];
		const location = destinationFor(code, {
			pageUrl: urls.pageUrl(code.id),
			userAgentOs: parseUserAgent(userAgent).os,
		});
		// Bots and link previews follow the link like anyone, but only people count as scans.
		if (req.method === 'GET' && !isBot(userAgent))
			recordScan(ctx, code, scanDetailsFromRequest(req));
		send(res, 302, undefined, { Location: location, ...NO_STORE });
	}

	function showCodePage(req, res, { id }) {
		const code = liveCode((c) => c.id === id);
		const html = code && (code.paused ? pausedPage(code) : codePage(code));
		if (!html) return sendHtml(res, 404, notFoundPage());
		sendHtml(res, 200, html);
	}

	function showCardPage(req, res, { id }) {
		const card = state.cards.find((c) => c.id === id);
		if (!card) return sendHtml(res, 404, notFoundPage());
		sendHtml(res, 200, cardPage(card));
	}

	function showDashboardCode(req, res, { id }) {
		const code = liveCode((c) => c.id === id);
		if (!code) return sendHtml(res, 404, notFoundPage());
		sendHtml(res, 200, dashboardPage('QR code', publicRecord(code, urls)));
	}

	function showDashboardCard(req, res, { id }) {
		const card = state.cards.find((c) => c.id === id);
		if (!card) return sendHtml(res, 404, notFoundPage());
		sendHtml(res, 200, dashboardPage('Card', cardRecord(card, urls)));
	}

	const table = createRouteTable(
		['GET', 'HEAD'].flatMap((method) => [
			{ method, path: '/s/{slug}', handle: followShortLink },
			{ method, path: '/p/{id}', handle: showCodePage },
			{ method, path: '/c/{id}', handle: showCardPage },
			{ method, path: '/qr-codes/{id}', handle: showDashboardCode },
			{ method, path: '/cards/{id}', handle: showDashboardCard },
			{
				method,
				path: '/developers/openapi.json',
				handle: (req, res) => sendJson(res, 200, openApiDocument),
			},
		]),
	);

	return function handlePublic(req, res, url) {
		const found = table.find(req.method, url.pathname);
		if (!found) return sendHtml(res, 404, notFoundPage());
		found.route.handle(req, res, found.params);
	};
}

module.exports = { createPublicHandler };
