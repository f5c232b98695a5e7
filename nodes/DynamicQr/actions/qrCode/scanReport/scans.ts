import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { DayCount } from '../../../api';
import { rejectsField, scansPerDay, unknownDaysError, unwrap } from '../../../api';
import type { ActionRun } from '../../run';
import type { BreakdownCounts } from './breakdowns';
import { addBreakdowns } from './breakdowns';
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
		const tooLong = rejectsField(refusal, 'from') || rejectsField(refusal, 'to');
		if (!tooLong || days < 2) throw refusal;
		refused.days = Math.min(refused.days, days);
	}
	const [first, second] = halves(range);
	return [
		...(await scanAnswers(run, path, first, itemIndex)),
		...(await scanAnswers(run, path, second, itemIndex)),
	];
}

/** A code of the report with its scans in the period and in the one before. */
export interface CodeScans {
	record: IDataObject;
	scans: number;
	previousScans: number;
}

const within = (date: string, { from, to }: Days) => date >= from && date <= to;

/**
 * Counts one code's scans in the period and the previous one.
 *
 * Requests: none for a code not scanned since the previous period began (by its
 * `last_scanned_at`); otherwise one `/scans` (more for a range the service refuses as too long) from the previous period's first day to the
 * period's last (or to the previous period's last, when the code was not scanned since the
 * period began), split by day. The breakdowns of an answer cover its whole range, and the report
 * shows the period's alone: when the code had scans in both periods, that takes one more
 * `/scans` of the period alone; when it had none in the previous period, the one answer's
 * breakdowns are the period's. (Two requests per code every time would cost more for the
 * many codes scanned in one period only; mixing the periods would give wrong top values.)
 */
export async function countScans(
	ctx: IExecuteFunctions,
	run: ActionRun,
	itemIndex: number,
	period: ReportPeriod,
	record: IDataObject,
	breakdowns: BreakdownCounts | undefined,
): Promise<CodeScans> {
	const lastScannedAt = record.last_scanned_at;
	if (!mayHaveScansSince(lastScannedAt, period.previous.from)) {
		return { record, scans: 0, previousScans: 0 };
	}
	const sincePeriod = mayHaveScansSince(lastScannedAt, period.from);
	const path = `/qr-codes/${encodeURIComponent(String(record.id))}/scans`;
	const ask = (range: Days) => scanAnswers(run, path, range, itemIndex);
	const answers = await ask({
		from: period.previous.from,
		to: sincePeriod ? period.to : period.previous.to,
	});
	const days: DayCount[] = [];
	for (const answer of answers) {
		const answerDays = scansPerDay(answer.days);
		if (!answerDays) {
			throw unknownDaysError(
				ctx.getNode(),
				answer.days,
				itemIndex,
				'QR Code › Get Scan Statistics gives the answer as it is.',
			);
		}
		days.push(...answerDays);
	}
	const sum = (range: Days) =>
		days.filter((day) => within(day.date, range)).reduce((total, day) => total + day.scans, 0);
	const scans = sum(period);
	const previousScans = sum(period.previous);
	if (breakdowns && scans > 0) {
		const ofPeriod = previousScans > 0 ? await ask({ from: period.from, to: period.to }) : answers;
		for (const answer of ofPeriod) addBreakdowns(breakdowns, answer.breakdowns);
	}
	return { record, scans, previousScans };
}
