import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { breakdownCounts, rejectsField, scansPerDay, unknownDaysError, unwrap } from '../../../api';
import type { ActionRun } from '../../run';
import type { Days, ReportPeriod } from './period';
import { daysIn, halves, mayHaveScansSince } from './period';

/** The shortest range the service refused as too long in this run (days); kept for the run. */
const REFUSED_DAYS = Symbol('scanReport.refusedDays');

/**
 * `/scans` of a range, in answers the service accepts. The reference shows no longest range; a
 * service that refuses one as too long (422 naming `from` or `to`; the sandbox takes 366 days) is
 * asked for each half, and so on down; the run then splits every range as long as one refused
 * before asking, so that only its first code meets the refusals. Days and breakdowns of the
 * answers add up.
 */
async function scanAnswers(
	run: ActionRun,
	path: string,
	range: Days,
	itemIndex: number,
): Promise<IDataObject[]> {
	const refused = run.keep(REFUSED_DAYS, () => ({ days: Infinity }));
	const days = daysIn(range);
	if (days < refused.days || days < 2) {
		let refusal: unknown;
		try {
			return [unwrap(await run.client.request('GET', path, { qs: { ...range }, itemIndex }))];
		} catch (error) {
			refusal = error;
		}
		// Anything else is the API error the client built: passed on as it is.
		if (days < 2 || !(rejectsField(refusal, 'from') || rejectsField(refusal, 'to'))) throw refusal;
		refused.days = Math.min(refused.days, days);
	}
	const [first, second] = halves(range);
	return [
		...(await scanAnswers(run, path, first, itemIndex)),
		...(await scanAnswers(run, path, second, itemIndex)),
	];
}

/** A code of the report: its scans in the period and the one before, the period's breakdowns. */
export interface CodeScans {
	record: IDataObject;
	scans: number;
	previousScans: number;
	breakdowns: unknown[];
}

/**
 * Counts one code's scans in the period and the previous one.
 *
 * Requests: none for a code not scanned since the previous period began (by its
 * `last_scanned_at`); otherwise one `/scans` (more for a range the service refuses as too long)
 * from the previous period's first day to the period's last (or to the previous period's last,
 * when the code was not scanned since the period began), split by day. The breakdowns of an
 * answer cover its whole range, and the summary shows the period's alone: when the code had scans
 * in both periods, that takes one more `/scans` of the period alone; when it had none in the
 * previous period, the one answer's breakdowns are the period's. (Two requests per code every
 * time would cost more for the many codes scanned in one period only; mixing the periods would
 * give wrong top values.)
 */
export async function countScans(
	ctx: IExecuteFunctions,
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
	const path = `/qr-codes/${encodeURIComponent(String(record.id))}/scans`;
	const ask = (range: Days) => scanAnswers(run, path, range, itemIndex);
	const to = mayHaveScansSince(lastScannedAt, period.from) ? period.to : period.previous.to;
	const answers = await ask({ from: period.previous.from, to });
	const days = answers.flatMap((answer) => {
		const answerDays = scansPerDay(answer.days);
		if (answerDays) return answerDays;
		throw unknownDaysError(
			ctx.getNode(),
			answer.days,
			itemIndex,
			'QR Code › Get Scan Statistics gives the answer as it is.',
		);
	});
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

/** The breakdowns of `/scans`, named as the reference names them. */
const BREAKDOWNS = ['country', 'city', 'device', 'system', 'browser', 'language', 'origin'];

/** How many values of each breakdown the summary shows. */
const TOP_VALUES = 5;

/** Each breakdown added up over the codes: `{ country: [{ value, scans }], … }`, most scans first. */
function topValues(codes: CodeScans[]): IDataObject {
	return Object.fromEntries(
		BREAKDOWNS.map((name) => {
			const totals = new Map<string, number>();
			for (const breakdowns of codes.flatMap((code) => code.breakdowns)) {
				for (const [value, count] of breakdownCounts(breakdowns, name)) {
					totals.set(value, (totals.get(value) ?? 0) + count);
				}
			}
			const top = [...totals]
				.filter(([, scans]) => scans > 0)
				.sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
				.slice(0, TOP_VALUES)
				.map(([value, scans]) => ({ value, scans }));
			return [name, top];
		}),
	);
}

/** Scans in the period and the one before, and the change (in percent: null when none before). */
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
): IDataObject[] {
	if (!summary) {
		return codes.map((code) => ({
			...codeFields(code),
			period: name,
			from,
			to,
			...counts(code),
		}));
	}
	const total = (key: 'scans' | 'previousScans') => codes.reduce((sum, code) => sum + code[key], 0);
	const perCode = [...codes].sort(
		(a, b) => b.scans - a.scans || String(a.record.name).localeCompare(String(b.record.name)),
	);
	return [
		{
			period: name,
			from,
			to,
			previous_from: previous.from,
			previous_to: previous.to,
			codes: codes.length,
			...counts({ scans: total('scans'), previousScans: total('previousScans') }),
			per_code: perCode.map((code) => ({ ...codeFields(code), ...counts(code) })),
			top: topValues(codes),
		},
	];
}
