'use strict';

// Each check returns an error message, or null when the value is fine.

const isPlainObject = (value) =>
	value !== null && typeof value === 'object' && !Array.isArray(value);

function checkText(value, max = 1000) {
	if (typeof value !== 'string') return 'must be a string';
	if (value.trim() === '') return 'must not be empty';
	if (value.length > max) return `must be at most ${max} characters`;
	return null;
}

function checkUrl(value) {
	if (typeof value !== 'string') return 'must be a URL (http or https)';
	try {
		const url = new URL(value);
		if ((url.protocol === 'http:' || url.protocol === 'https:') && url.hostname) return null;
	} catch {
		// fall through to the message
	}
	return `must be a full http or https URL, e.g. https://example.com (got "${value}")`;
}

function checkEmail(value) {
	if (typeof value === 'string' && /^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(value)) return null;
	return `must be an e-mail address, e.g. name@example.com (got "${value}")`;
}

function checkPhone(value) {
	if (typeof value === 'string' && /^\+?[0-9 ().-]+$/.test(value)) {
		const digits = value.replace(/\D/g, '');
		if (digits.length >= 6 && digits.length <= 15) return null;
	}
	return `must be a phone number in international format, e.g. +14155550123 (got "${value}")`;
}

const ISO_DATE_TIME =
	/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function checkIsoDateTime(value) {
	const valid =
		typeof value === 'string' &&
		ISO_DATE_TIME.test(value) &&
		isCalendarDate(value.slice(0, 10)) && // Date.parse would roll 2030-02-30 over into March
		!Number.isNaN(Date.parse(value));
	if (valid) return null;
	return `must be an ISO 8601 date or date-time, e.g. 2030-05-01T18:00:00Z (got "${value}")`;
}

/** A calendar day `YYYY-MM-DD` that really exists (no 2024-02-30). */
function isCalendarDate(value) {
	if (typeof value !== 'string' || !/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
	const date = new Date(`${value}T00:00:00Z`);
	return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

module.exports = {
	isPlainObject,
	checkText,
	checkUrl,
	checkEmail,
	checkPhone,
	checkIsoDateTime,
	isCalendarDate,
};
