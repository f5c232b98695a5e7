'use strict';

// Crawlers and link-preview fetchers: redirected like everyone else, but not counted as scans.
const BOT_PATTERN =
	/bot\b|bot\/|crawler|spider|crawling|facebookexternalhit|slackbot|twitterbot|whatsapp|telegrambot|discordbot|linkedinbot|preview|embedly|headless/i;

const isBot = (userAgent) => BOT_PATTERN.test(userAgent || '');

// First match wins, so the more specific tokens come first (Edge and Opera also say "Chrome").
const BROWSERS = [
	[/SamsungBrowser\//, 'Samsung Internet'],
	[/Edg(A|iOS)?\//, 'Edge'],
	[/OPR\/|Opera/, 'Opera'],
	[/CriOS\/|Chrome\//, 'Chrome'],
	[/FxiOS\/|Firefox\//, 'Firefox'],
	[/Safari\//, 'Safari'],
];

const SYSTEMS = [
	[/iPhone|iPad|iPod/, 'iOS'],
	[/Android/, 'Android'],
	[/Windows/, 'Windows'],
	[/Mac OS X|Macintosh/, 'macOS'],
	[/CrOS/, 'ChromeOS'],
	[/Linux/, 'Linux'],
];

const firstMatch = (table, text, fallback) =>
	(table.find(([pattern]) => pattern.test(text)) || [null, fallback])[1];

function deviceOf(userAgent) {
	if (/iPad|Tablet/.test(userAgent) || (/Android/.test(userAgent) && !/Mobile/.test(userAgent)))
		return 'tablet';
	if (/Mobi|iPhone|iPod|Android/.test(userAgent)) return 'mobile';
	return 'desktop';
}

/** { device: mobile|tablet|desktop, os, browser } from a User-Agent header. */
function parseUserAgent(userAgent = '') {
	const text = userAgent || '';
	return {
		device: deviceOf(text),
		os: firstMatch(SYSTEMS, text, 'Other'),
		browser: firstMatch(BROWSERS, text, 'Other'),
	};
}

/** The primary language of an Accept-Language header: "de-DE,de;q=0.9" -> "de". */
function languageOf(acceptLanguage) {
	const first = String(acceptLanguage || '')
		.split(',')[0]
		.trim();
	const primary = first.split(/[-;]/)[0].toLowerCase();
	return /^[a-z]{2,3}$/.test(primary) ? primary : 'unknown';
}

module.exports = { isBot, parseUserAgent, languageOf };
