import { timeMs } from '../../../api';

/**
 * The report's period and the one before it, as calendar days (YYYY-MM-DD) in the workflow's
 * time zone. Day arithmetic runs on UTC midnights, where every day has 24 hours.
 */

export const PERIODS = ['yesterday', 'last7Days', 'last30Days', 'thisMonth', 'lastMonth'] as const;

export interface Days {
	from: string;
	to: string;
}

export interface ReportPeriod extends Days {
	name: string;
	days: number;
	previous: Days;
}

const DAY_MS = 24 * 60 * 60 * 1000;

const dayMs = (day: string) => Date.parse(`${day}T00:00:00Z`);
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
export const addDays = (day: string, count: number) => dayOf(dayMs(day) + count * DAY_MS);
export const daysIn = ({ from, to }: Days) => Math.round((dayMs(to) - dayMs(from)) / DAY_MS) + 1;

/** The range in two halves (the first one the shorter when the days are odd). */
export function halves(range: Days): [Days, Days] {
	const firstTo = addDays(range.from, Math.floor(daysIn(range) / 2) - 1);
	return [
		{ from: range.from, to: firstTo },
		{ from: addDays(firstTo, 1), to: range.to },
	];
}

/** Today's date where the workflow runs: `Intl` gives the local date parts of `now`. */
export function localToday(now: number, timeZone: string): string {
	const parts = new Intl.DateTimeFormat('en-US', {
		timeZone,
		year: 'numeric',
		month: '2-digit',
		day: '2-digit',
	}).formatToParts(new Date(now));
	const part = (type: string) => parts.find((entry) => entry.type === type)?.value ?? '';
	return `${part('year')}-${part('month')}-${part('day')}`;
}

/** The period's days; the "Last N Days" periods are whole days, ending yesterday. */
function periodDays(name: string, today: string): Days {
	const firstOfMonth = `${today.slice(0, 7)}-01`;
	switch (name) {
		case 'yesterday':
			return { from: addDays(today, -1), to: addDays(today, -1) };
		case 'last7Days':
			return { from: addDays(today, -7), to: addDays(today, -1) };
		case 'last30Days':
			return { from: addDays(today, -30), to: addDays(today, -1) };
		case 'thisMonth':
			return { from: firstOfMonth, to: today };
		case 'lastMonth': {
			const lastDay = addDays(firstOfMonth, -1);
			return { from: `${lastDay.slice(0, 7)}-01`, to: lastDay };
		}
		default:
			throw new Error(`Unknown period "${name}"`);
	}
}

/** The period and the previous one: the same number of days, ending the day before it starts. */
export function reportPeriod(name: string, days: Days): ReportPeriod {
	const length = daysIn(days);
	const previousTo = addDays(days.from, -1);
	return {
		name,
		...days,
		days: length,
		previous: { from: addDays(previousTo, -(length - 1)), to: previousTo },
	};
}

/** A named period as of `now` in `timeZone`. */
export function namedPeriod(name: string, now: number, timeZone: string): ReportPeriod {
	return reportPeriod(name, periodDays(name, localToday(now, timeZone)));
}

/**
 * Whether a code last scanned at `lastScannedAt` (a timestamp, or null: never) can have scans on
 * `day` or later. The reference does not say in which time zone the service counts its days, so
 * a scan counts as possibly on `day` from the moment that day begins anywhere (UTC+14): a code is
 * skipped only when no reading of the service's days could count its last scan there.
 */
export function mayHaveScansSince(lastScannedAt: unknown, day: string): boolean {
	if (lastScannedAt === null || lastScannedAt === undefined || lastScannedAt === '') return false;
	const at = timeMs(lastScannedAt);
	// A timestamp this node cannot read says nothing: ask.
	if (Number.isNaN(at)) return true;
	return at >= dayMs(day) - 14 * 60 * 60 * 1000;
}
