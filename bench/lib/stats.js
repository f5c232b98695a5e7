'use strict';
/** Small statistics and formatting helpers for the bench report. */

function sorted(values) {
	return values.filter((v) => typeof v === 'number' && Number.isFinite(v)).sort((a, b) => a - b);
}

function median(values) {
	const s = sorted(values);
	if (!s.length) return NaN;
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** { min, median, max, n } of the finite numbers in `values`. */
function summary(values) {
	const s = sorted(values);
	return { min: s.length ? s[0] : NaN, median: median(s), max: s.length ? s[s.length - 1] : NaN, n: s.length };
}

function fixed(value, digits) {
	if (typeof value !== 'number' || !Number.isFinite(value)) return '–';
	return value.toFixed(digits);
}

/** "20.4 (20.1–21.0)": median with min–max, or only the value when all repeats agree. */
function range(values, digits = 1, unit = '') {
	const { min, median: med, max, n } = summary(values);
	if (!n) return '–';
	if (n === 1 || fixed(min, digits) === fixed(max, digits)) return `${fixed(med, digits)}${unit}`;
	return `${fixed(med, digits)}${unit} (${fixed(min, digits)}–${fixed(max, digits)})`;
}

/** Counts per repeat: "1000" when all agree, else "998, 1000, 1000". */
function counts(values) {
	if (!values.length) return '–';
	const shown = values.map((v) => (v === undefined || v === null || Number.isNaN(v) ? '?' : String(v)));
	return new Set(shown).size === 1 ? shown[0] : shown.join(', ');
}

const ms = (value) => fixed(value / 1000, 2);

module.exports = { median, summary, fixed, range, counts, ms };
