import type { IDataObject } from 'n8n-workflow';

import { breakdownCounts, rejectsField, scanCount, scansPerDay, unwrap } from '../../../api';
import type { ActionRun } from '../../run';
import type { Days, ReportPeriod } from './period';
import { addDays, daysIn, mayHaveScansSince, scannedOnlyWithin } from './period';

/** A code of the report: its scans in the period and the one before, the period's breakdowns. */
export interface CodeScans {
	record: IDataObject;
	scans: number;
	previousScans: number;
	breakdowns: unknown[];
}

/**
 * One code's scans in the period and the one before. None asked for when its times tell (no scan
 * since, or made and last scanned in one period); else one `/scans` of both periods, and one of the
 * period alone for breakdowns when both had scans (an answer's breakdowns cover its whole range).
 */
export async function countScans(
	run: ActionRun,
	itemIndex: number,
	period: ReportPeriod,
	record: IDataObject,
	withBreakdowns: boolean,
): Promise<CodeScans> {
	const lastScannedAt = record.last_scanned_at;
	if (!mayHaveScansSince(lastScannedAt, period.previous.from)) {
		return { record, scans: 0, previousScans: 0, breakdowns: [] };
	}
	// A code made and last scanned within one period: its lifetime count, unless breakdowns are due.
	const lifetime = scanCount(record);
	if (scannedOnlyWithin(record.created_at, lastScannedAt, period.previous)) {
		return { record, scans: 0, previousScans: lifetime, breakdowns: [] };
	}
	if (!withBreakdowns && scannedOnlyWithin(record.created_at, lastScannedAt, period)) {
		return { record, scans: lifetime, previousScans: 0, breakdowns: [] };
	}
	const path = `/qr-codes/${encodeURIComponent(String(record.id))}/scans`;
	// A range the service refuses as too long (422 naming `from` or `to`; the reference shows no
	// limit) is asked for in halves; the run then splits every range that long before asking.
	const ask = async (range: Days): Promise<IDataObject[]> => {
		const days = daysIn(range);
		if (days < run.refusedDays || days < 2) {
			const asked = run.client.request('GET', path, { qs: { ...range }, itemIndex });
			const answer = await asked.catch((refusal: unknown) => {
				// Anything else is the API error the client built: passed on as it is.
				if (days < 2 || !(rejectsField(refusal, 'from') || rejectsField(refusal, 'to')))
					throw refusal;
				run.refusedDays = Math.min(run.refusedDays, days);
			});
			if (answer !== undefined) return [unwrap(answer)];
		}
		// In halves, the first the shorter when the days are odd.
		const firstTo = addDays(range.from, Math.floor(days / 2) - 1);
		const first = await ask({ from: range.from, to: firstTo });
		return [...first, ...(await ask({ from: addDays(firstTo, 1), to: range.to }))];
	};
	const to = mayHaveScansSince(lastScannedAt, period.from) ? period.to : period.previous.to;
	const answers = await ask({ from: period.previous.from, to });
	const fix = 'QR Code › Get Scan Statistics gives the answer as it is';
	const days = answers.flatMap((answer) => scansPerDay(run.ctx.getNode(), answer, itemIndex, fix));
	const sum = (range: Days) =>
		days
			.filter(({ date }) => date >= range.from && date <= range.to)
			.reduce((total, day) => total + day.scans, 0);
	const scans = sum(period);
	const previousScans = sum(period.previous);
	let ofPeriod: IDataObject[] = [];
	if (withBreakdowns && scans > 0) {
		ofPeriod = previousScans > 0 ? await ask({ from: period.from, to: period.to }) : answers;
	}
	return { record, scans, previousScans, breakdowns: ofPeriod.map((answer) => answer.breakdowns) };
}

const BREAKDOWNS = ['country', 'city', 'device', 'system', 'browser', 'language', 'origin'];

/** Each breakdown added up over the codes: `{ country: [{ value, scans }], … }`, most scans first. */
function topValues(codes: CodeScans[]): IDataObject {
	return Object.fromEntries(
		BREAKDOWNS.map((name) => {
			const totals = new Map<string, number>();
			const counted = codes.flatMap((code) =>
				code.breakdowns.flatMap((of) => breakdownCounts(of, name)),
			);
			for (const [value, count] of counted) totals.set(value, (totals.get(value) ?? 0) + count);
			const top = [...totals]
				.filter(([, scans]) => scans > 0)
				.sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
				.slice(0, 5)
				.map(([value, scans]) => ({ value, scans }));
			return [name, top];
		}),
	);
}

/** The change in percent is null when there were no scans before. */
const counts = ({ scans, previousScans }: Pick<CodeScans, 'scans' | 'previousScans'>) => ({
	scans,
	previous_scans: previousScans,
	change: scans - previousScans,
	change_percent:
		previousScans === 0 ? null : Math.round(((scans - previousScans) / previousScans) * 1000) / 10,
});

const codeFields = ({ record }: CodeScans): IDataObject => ({
	id: record.id,
	name: record.name,
	type: record.type,
	short_url: record.short_url,
});

/** One row per code, ready for a sheet, or the whole report in one item, ready for a chat message. */
export function reportItems(
	{ name, from, to, previous }: ReportPeriod,
	codes: CodeScans[],
	summary: boolean,
): IDataObject | IDataObject[] {
	if (!summary) {
		return codes.map((code) => ({ ...codeFields(code), period: name, from, to, ...counts(code) }));
	}
	const total = (key: 'scans' | 'previousScans') => codes.reduce((sum, code) => sum + code[key], 0);
	const perCode = [...codes].sort(
		(a, b) => b.scans - a.scans || String(a.record.name).localeCompare(String(b.record.name)),
	);
	return {
		period: name,
		from,
		to,
		previous_from: previous.from,
		previous_to: previous.to,
		codes: codes.length,
		...counts({ scans: total('scans'), previousScans: total('previousScans') }),
		per_code: perCode.map((code) => ({ ...codeFields(code), ...counts(code) })),
		top: topValues(codes),
	};
}
