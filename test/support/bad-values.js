'use strict';
/**
 * Values of every JavaScript type, as data (a sheet, a form, an AI agent) can hand them to any
 * field through an expression, and the oracle: what each declared parameter type makes of a
 * value (README "Values from expressions"). The oracle is the written convention, kept apart from
 * the node's code so that a test can hold one against the other.
 */
const path = require('node:path');

// Luxon as n8n-workflow (which hands DateTime to expressions) resolves it.
const { DateTime } = require(
	require.resolve('luxon', { paths: [path.dirname(require.resolve('n8n-workflow'))] }),
);

/**
 * Each value as JavaScript source, so that values JSON cannot carry (undefined, NaN, Infinity,
 * Date, Luxon DateTime) reach the field too. `json: false` marks those: they are written into
 * the expression itself, the others are read from the item with `{{ $json.v }}`.
 */
const SOURCES = [
	'undefined',
	'null',
	'true',
	'false',
	'0',
	'1',
	'-1',
	'2.5',
	'64',
	'21',
	'NaN',
	'Infinity',
	'1e21',
	'""',
	'"   "',
	'"true"',
	'" FALSE "',
	'"0"',
	'"abc"',
	'" 7 "',
	'"0x10"',
	'"a1B2c3D4e5F6"',
	'"https://qr.example.com/qr-codes/a1B2c3D4e5F6"',
	'"https://example.com/page"',
	'"2030-05-01"',
	'"2030-02-30"',
	'"2030-05-01T18:00:00Z"',
	'"注文-東京"',
	'"line\\r\\nInjected: yes"',
	'"x".repeat(3000)',
	// Names of Object.prototype's members: a reader that looks text up in a plain object (`in`,
	// obj[text]) finds them there, so "constructor" would read as true or as a known option.
	'"constructor"',
	'" ToString "',
	'"valueOf"',
	'"hasOwnProperty"',
	'"__proto__"',
	'"isPrototypeOf"',
	'"propertyIsEnumerable"',
	'"toLocaleString"',
	'"__defineGetter__"',
	'"__lookupGetter__"',
	'{}',
	'{ "a": 1 }',
	'[]',
	'["png", "qr_code.created"]',
	'new Date("2030-05-01T10:00:00Z")',
	'new Date("invalid")',
	'DateTime.fromISO("2030-05-01T10:00:00Z", { setZone: true })',
];

const evaluate = (source) => new Function('DateTime', `return (${source});`)(DateTime);

/** `{ source, value, json }` for every value of the set. */
const VALUES = SOURCES.map((source) => {
	const value = evaluate(source);
	const json =
		value !== undefined &&
		!(value instanceof Date) &&
		!DateTime.isDateTime(value) &&
		!(typeof value === 'number' && !Number.isFinite(value));
	return { source, value, json };
});

/** The JavaScript types the set covers, for the test to prove it covers them all. */
function typeOf(value) {
	if (value === null) return 'null';
	if (Array.isArray(value)) return 'array';
	if (value instanceof Date) return 'Date';
	if (DateTime.isDateTime(value)) return 'DateTime';
	return typeof value;
}

const isBlank = (value) =>
	value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

const ISO =
	/^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))?)?$/;

function isoText(text) {
	const match = ISO.exec(text);
	if (!match) return false;
	const [, y, m, d, h = 0, min = 0, s = 0] = match.map((part) => part && Number(part));
	const date = new Date(Date.UTC(y, m - 1, d));
	return date.getUTCMonth() === m - 1 && date.getUTCDate() === d && h <= 23 && min <= 59 && s <= 59;
}

const REJECT = { reject: true };
const accept = (value) => ({ value });
const NOT_SET = { notSet: true };

const isPlainObject = (value) =>
	Object.prototype.toString.call(value) === '[object Object]' && !DateTime.isDateTime(value);

/**
 * What a field of this declared type makes of a value: `{ value }` (accepted, as this value),
 * `{ notSet: true }` (empty: the default applies) or `{ reject: true }` (an error for the item).
 * `field.list` marks a text field that takes a comma-separated text or a list (tags, IDs).
 */
function oracle(property, raw, { list = false, idRegex } = {}) {
	if (isBlank(raw)) return NOT_SET;
	switch (property.type) {
		case 'boolean': {
			if (typeof raw === 'boolean') return accept(raw);
			if (raw === 1 || raw === 0) return accept(raw === 1);
			const text = typeof raw === 'string' ? raw.trim().toLowerCase() : undefined;
			if (['true', '1'].includes(text)) return accept(true);
			if (['false', '0'].includes(text)) return accept(false);
			return REJECT;
		}
		case 'number': {
			const { minValue, maxValue, numberPrecision } = property.typeOptions ?? {};
			let number;
			if (typeof raw === 'number') number = raw;
			else if (
				typeof raw === 'string' &&
				/^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(raw.trim())
			)
				number = Number(raw);
			if (
				number === undefined ||
				!Number.isFinite(number) ||
				(!numberPrecision && !Number.isInteger(number)) ||
				(minValue !== undefined && number < minValue) ||
				(maxValue !== undefined && number > maxValue)
			)
				return REJECT;
			return accept(number);
		}
		case 'dateTime':
			if (raw instanceof Date)
				return Number.isNaN(raw.getTime()) ? REJECT : accept(raw.toISOString());
			if (DateTime.isDateTime(raw)) return raw.isValid ? accept(raw.toISO()) : REJECT;
			return typeof raw === 'string' && isoText(raw.trim()) ? accept(raw.trim()) : REJECT;
		case 'options': {
			if (property.typeOptions?.loadOptionsMethod) return idOf(raw, idRegex);
			const text = typeof raw === 'string' ? raw.trim() : raw;
			return property.options.some((option) => option.value === text) ? accept(text) : REJECT;
		}
		case 'multiOptions': {
			const entries = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : null;
			if (!entries) return REJECT;
			const chosen = [];
			for (const entry of entries) {
				const text = typeof entry === 'string' ? entry.trim() : entry;
				if (text === '') continue;
				if (!property.options.some((option) => option.value === text)) return REJECT;
				if (!chosen.includes(text)) chosen.push(text);
			}
			return chosen.length ? accept(chosen) : NOT_SET;
		}
		case 'json':
			// A JSON field takes an object or a list, or a text of JSON (checked for shape later).
			if (typeof raw === 'string') {
				try {
					return accept(JSON.parse(raw));
				} catch {
					return REJECT;
				}
			}
			return isPlainObject(raw) || Array.isArray(raw) ? accept(raw) : REJECT;
		default: {
			const text = (entry) =>
				typeof entry === 'string'
					? entry
					: typeof entry === 'number' && Number.isFinite(entry)
						? String(entry)
						: undefined;
			if (list && Array.isArray(raw)) {
				const entries = raw.map(text);
				if (entries.includes(undefined)) return REJECT;
				const listed = entries.map((entry) => entry.trim()).filter(Boolean);
				return listed.length ? accept(listed.join(', ')) : NOT_SET;
			}
			return text(raw) === undefined ? REJECT : accept(text(raw));
		}
	}
}

/** A record ID: text (or an integer) of the ID alphabet. */
function idOf(raw, idRegex) {
	const text =
		typeof raw === 'string' ? raw.trim() : Number.isInteger(raw) ? String(raw) : undefined;
	return text !== undefined && idRegex.test(text) ? accept(text) : REJECT;
}

/** A resource locator's value in one mode: By URL takes the dashboard URL, the others an ID. */
function locatorOracle(property, mode, raw, idRegex) {
	if (isBlank(raw)) return REJECT; // every locator here is required
	const spec = property.modes.find((candidate) => candidate.name === mode);
	if (spec.extractValue) {
		if (typeof raw !== 'string') return REJECT;
		const match = new RegExp(spec.extractValue.regex).exec(raw.trim());
		return match && !idOf(match[1], idRegex).reject ? accept(raw.trim()) : REJECT;
	}
	return idOf(raw, idRegex);
}

/** Whether a request as the node built it carries a value made from a coerced one. */
function coercionIn(request) {
	const problems = [];
	const visit = (value, where) => {
		if (typeof value === 'string') {
			if (value.includes('[object Object]')) problems.push(`${where} holds "[object Object]"`);
			if (['undefined', 'NaN', 'Infinity', 'null'].includes(value))
				problems.push(`${where} is the text "${value}"`);
		} else if (typeof value === 'number' && !Number.isFinite(value)) {
			problems.push(`${where} is ${value}`);
		} else if (Array.isArray(value)) {
			value.forEach((entry, index) => visit(entry, `${where}[${index}]`));
		} else if (value && typeof value === 'object' && !Buffer.isBuffer(value)) {
			for (const [key, entry] of Object.entries(value)) visit(entry, `${where}.${key}`);
		}
	};
	for (const [key, value] of Object.entries(request.qs ?? {})) {
		if (value !== null && typeof value === 'object')
			problems.push(`query ${key} is an object (sent as ${key}[…])`);
		visit(value, `query ${key}`);
	}
	for (const [name, value] of Object.entries(request.headers ?? {})) {
		// What a header cannot hold, the HTTP client drops or refuses: the value would change.
		if (!/^[\x20-\x7e]*$/.test(String(value)))
			problems.push(`header ${name} holds characters a header cannot carry`);
	}
	if (!Buffer.isBuffer(request.body)) visit(request.body, 'body');
	return problems;
}

module.exports = { VALUES, typeOf, oracle, locatorOracle, coercionIn, isBlank };
