import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { unwrap } from '../../../api';
import type { ActionRun } from '../../shared/run';
import { scansPerDay, unknownDaysError } from '../shared/scanDays';
import type { BreakdownCounts } from './breakdowns';
import { addBreakdowns } from './breakdowns';
import type { Days, ReportPeriod } from './period';
import { mayHaveScansSince } from './period';

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
 * `last_scanned_at`); otherwise one `/scans` from the previous period's first day to the
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
	const ask = async (range: Days) =>
		unwrap(await run.client.request('GET', path, { qs: { ...range }, itemIndex }));
	const answer = await ask({
		from: period.previous.from,
		to: sincePeriod ? period.to : period.previous.to,
	});
	const days = scansPerDay(answer.days);
	if (!days) {
		throw unknownDaysError(
			ctx.getNode(),
			answer.days,
			itemIndex,
			'QR Code › Get Scan Statistics gives the answer as it is.',
		);
	}
	const sum = (range: Days) =>
		days.filter((day) => within(day.date, range)).reduce((total, day) => total + day.scans, 0);
	const scans = sum(period);
	const previousScans = sum(period.previous);
	if (breakdowns && scans > 0) {
		addBreakdowns(
			breakdowns,
			previousScans > 0
				? (await ask({ from: period.from, to: period.to })).breakdowns
				: answer.breakdowns,
		);
	}
	return { record, scans, previousScans };
}
