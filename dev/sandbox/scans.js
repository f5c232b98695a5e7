'use strict';

// Scans: recording one (from a short-link visit or the control API) and the /scans statistics.

const { parseUserAgent, languageOf } = require('./user-agent');
const { publicRecord, findCode } = require('./qr-code-records');
const { isCalendarDate } = require('./validators');
const { invalid } = require('./http-util');
const { newId } = require('./ids');
const { ID_PARAM } = require('./api-docs');

const DIMENSIONS = ['country', 'city', 'device', 'os', 'browser', 'language', 'origin'];
const DEFAULT_DAYS = 30;
const MAX_DAYS = 366;
const DAY_MS = 24 * 60 * 60 * 1000;
// Loopback visitors cannot be geolocated, so the place comes from these headers or defaults.
const DEFAULT_PLACE = { country: 'US', city: 'New York' };

/** What a short-link visit tells about the scan. */
function scanDetailsFromRequest(req) {
	const country = String(req.headers['x-sandbox-country'] || '')
		.trim()
		.toUpperCase();
	return {
		...parseUserAgent(req.headers['user-agent']),
		country: /^[A-Z]{2}$/.test(country) ? country : DEFAULT_PLACE.country,
		city: String(req.headers['x-sandbox-city'] || '').trim() || DEFAULT_PLACE.city,
		language: languageOf(req.headers['accept-language']),
		referrer: req.headers.referer || null,
	};
}

/** Stores the scan, counts it on the code and emits scan.created (never with an IP address). */
function recordScan({ state, clock, urls, dispatcher }, code, details) {
	const scan = {
		id: newId(),
		object: 'scan',
		qr_code_id: code.id,
		scanned_at: details.scanned_at || clock.iso(),
		country: details.country || DEFAULT_PLACE.country,
		city: details.city || DEFAULT_PLACE.city,
		device: details.device || 'desktop',
		os: details.os || 'Other',
		browser: details.browser || 'Other',
		language: details.language || 'unknown',
		referrer: details.referrer || null,
		origin: details.referrer ? 'link' : 'qr',
		variant: null,
	};
	state.scans.push(scan);
	code.scans += 1;
	if (!code.last_scanned_at || scan.scanned_at > code.last_scanned_at)
		code.last_scanned_at = scan.scanned_at;
	const record = publicRecord(code, urls);
	const { id, object, qr_code_id, origin, ...eventFields } = scan;
	dispatcher.emit(state.workspaceById(code.workspaceId), 'scan.created', {
		qr_code: { id: code.id, name: code.name, type: code.type },
		short_url: record.short_url,
		...eventFields,
	});
	return scan;
}

const dayOf = (ms) => new Date(ms).toISOString().slice(0, 10);

function dateRange(query, today) {
	const errors = {};
	for (const name of ['from', 'to']) {
		if (query[name] !== undefined && !isCalendarDate(query[name])) {
			errors[name] = `${name} must be a date YYYY-MM-DD, e.g. 2030-01-31 (got "${query[name]}").`;
		}
	}
	if (Object.keys(errors).length) throw invalid(errors);
	const to = query.to || today;
	const from = query.from || dayOf(Date.parse(`${to}T00:00:00Z`) - (DEFAULT_DAYS - 1) * DAY_MS);
	if (from > to) throw invalid({ from: `from (${from}) must not be after to (${to}).` });
	const days = (Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS + 1;
	if (days > MAX_DAYS)
		throw invalid({ from: `The range holds ${days} days; ask for at most ${MAX_DAYS}.` });
	return { from, to, days };
}

function breakdown(scans, dimension) {
	const counts = new Map();
	for (const scan of scans) counts.set(scan[dimension], (counts.get(scan[dimension]) || 0) + 1);
	return [...counts]
		.map(([value, count]) => ({ value, scans: count }))
		.sort((a, b) => b.scans - a.scans || String(a.value).localeCompare(String(b.value)));
}

/** { from, to, total, days: [{ date, scans }] zero-filled, breakdowns: { dimension: [{ value, scans }] } } */
function scanStatistics(scans, { from, to, days }) {
	const inRange = scans.filter(
		(scan) => scan.scanned_at.slice(0, 10) >= from && scan.scanned_at.slice(0, 10) <= to,
	);
	const start = Date.parse(`${from}T00:00:00Z`);
	const perDay = Array.from({ length: days }, (_, index) => {
		const date = dayOf(start + index * DAY_MS);
		return { date, scans: inRange.filter((scan) => scan.scanned_at.startsWith(date)).length };
	});
	return {
		from,
		to,
		total: inRange.length,
		days: perDay,
		breakdowns: Object.fromEntries(
			DIMENSIONS.map((dimension) => [dimension, breakdown(inRange, dimension)]),
		),
	};
}

function scanRoutes({ state, clock }) {
	return [
		{
			method: 'GET',
			path: '/qr-codes/{id}/scans',
			params: [ID_PARAM],
			query: [
				{
					name: 'from',
					type: 'string',
					description: 'First day, YYYY-MM-DD (default: 29 days before to)',
				},
				{ name: 'to', type: 'string', description: 'Last day, YYYY-MM-DD (default: today, UTC)' },
			],
			summary:
				'Scans per day and breakdowns by country, city, device, os, browser, language, origin',
			success: { status: 200, description: 'Scan statistics' },
			handle({ workspace, params, query }) {
				const code = findCode(state, workspace, params.id);
				const range = dateRange(query, dayOf(clock.now()));
				const scans = state.scans.filter((scan) => scan.qr_code_id === code.id);
				return { status: 200, json: { data: scanStatistics(scans, range) } };
			},
		},
	];
}

/**
 * For readings (readings/scans-days-*.js): an `after` hook that gives a successful /scans answer
 * its days in another shape, `reshape([{ date, scans }])`.
 */
/** A reading's `after` that reshapes the statistics of a /scans answer. */
function reshapeAnswer(reshape) {
	return (call, answer) => {
		if (call.route !== '/qr-codes/{id}/scans' || answer.status !== 200) return answer;
		return { ...answer, json: { ...answer.json, data: reshape(answer.json.data) } };
	};
}

/** A reading's `after` that reshapes the scans per day of a /scans answer. */
const reshapeDays = (reshape) => reshapeAnswer((data) => ({ ...data, days: reshape(data.days) }));

module.exports = {
	scanRoutes,
	recordScan,
	scanDetailsFromRequest,
	reshapeAnswer,
	reshapeDays,
	DEFAULT_PLACE,
};
