import { timeMs } from '../../../api';
import type { ParameterReader } from '../../../shared/parameters';

/** Calendar days (YYYY-MM-DD) in the workflow's time zone; arithmetic on UTC midnights. */
export type Days = { from: string; to: string };
export type ReportPeriod = Days & { name: string; previous: Days };

const DAY_MS = 24 * 60 * 60 * 1000;
/** The furthest a time zone's days lie from UTC's (UTC+14). */
const ZONE_MS = 14 * 60 * 60 * 1000;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
export const addDays = (day: string, count: number) =>
	new Date(dayMs(day) + count * DAY_MS).toISOString().slice(0, 10);
export const daysIn = ({ from, to }: Days) => Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;

/** The period and the previous one: the same number of days, ending the day before it starts. */
function reportPeriod(name: string, days: Days): ReportPeriod {
	const to = addDays(days.from, -1);
	return { name, ...days, previous: { from: addDays(to, 1 - daysIn(days)), to } };
}

/** A named period as of `now` in `timeZone`; the "Last N Days" are whole days, ending yesterday. */
function namedPeriod(name: string, now: number, timeZone: string): ReportPeriod {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(new Date(now));
	const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
	const today = `${part('year')}-${part('month')}-${part('day')}`;
	const month = `${today.slice(0, 7)}-01`;
	const lastMonthEnd = addDays(month, -1);
	const lastDays = (count: number) => ({ from: addDays(today, -count), to: addDays(today, -1) });
	const days = new Map<string, Days>([
		['yesterday', lastDays(1)],
		['last7Days', lastDays(7)],
		['last30Days', lastDays(30)],
		['thisMonth', { from: month, to: today }],
		['lastMonth', { from: `${lastMonthEnd.slice(0, 7)}-01`, to: lastMonthEnd }],
	]).get(name);
	if (!days) throw new Error(`Unknown period "${name}"`);
	return reportPeriod(name, days);
}

/** "2030-05-01" of checked ISO 8601 text: the day as written (its own offset, not UTC). */
export const calendarDay = (iso: string): string => iso.slice(0, 10);

/** The period chosen, checked before any request. */
export function readPeriod(parameters: ParameterReader, timeZone: string) {
	const name = parameters.option('period');
	if (name !== 'custom') return namedPeriod(name, Date.now(), timeZone);
	const from = calendarDay(parameters.string('from', { required: true }));
	const to = calendarDay(parameters.string('to', { required: true }));
	if (from > to) {
		const property = parameters.property('from');
		throw parameters.fail({ property }, from, `a day no later than To (${to})`);
	}
	return reportPeriod(name, { from, to });
}

/**
 * Whether a code last scanned at `lastScannedAt` (null: never) can have scans on `day` or later;
 * the reference does not say in which time zone days are counted, so `day` begins at UTC+14's.
 */
export function mayHaveScansSince(lastScannedAt: unknown, day: string): boolean {
	if (lastScannedAt === null || lastScannedAt === undefined || lastScannedAt === '') return false;
	const at = timeMs(lastScannedAt);
	// A timestamp this node cannot read says nothing: ask.
	return Number.isNaN(at) || at >= dayMs(day) - ZONE_MS;
}

/**
 * Whether every scan of a code, made between its creation and its last scan, falls on the days of
 * `range` in any time zone (UTC−12 to UTC+14): then its lifetime count is the range's scans.
 */
export function scannedOnlyWithin(createdAt: unknown, lastScannedAt: unknown, range: Days) {
	const created = timeMs(createdAt);
	const last = lastScannedAt ? timeMs(lastScannedAt) : NaN;
	return created >= dayMs(range.from) + ZONE_MS && last < dayMs(range.to) + DAY_MS - ZONE_MS;
}
