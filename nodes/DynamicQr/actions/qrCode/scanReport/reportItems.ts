import type { IDataObject } from 'n8n-workflow';

import type { BreakdownCounts } from './breakdowns';
import { topValues } from './breakdowns';
import type { ReportPeriod } from './period';
import type { CodeScans } from './scans';

/** The change from the previous period: absolute, and in percent (null when it had none). */
function change(scans: number, previousScans: number): IDataObject {
	return {
		change: scans - previousScans,
		change_percent:
			previousScans === 0
				? null
				: Math.round(((scans - previousScans) / previousScans) * 1000) / 10,
	};
}

const codeFields = ({ record }: CodeScans): IDataObject => ({
	id: record.id,
	name: record.name,
	type: record.type,
	short_url: record.short_url,
});

/** One row per code, ready for a sheet. */
export function codeRows(period: ReportPeriod, codes: CodeScans[]): IDataObject[] {
	return codes.map((code) => ({
		...codeFields(code),
		period: period.name,
		from: period.from,
		to: period.to,
		scans: code.scans,
		previous_scans: code.previousScans,
		...change(code.scans, code.previousScans),
	}));
}

/** The whole report in one item, ready for a chat message: codes with most scans first. */
export function summary(
	period: ReportPeriod,
	codes: CodeScans[],
	breakdowns: BreakdownCounts,
): IDataObject {
	const scans = codes.reduce((total, code) => total + code.scans, 0);
	const previousScans = codes.reduce((total, code) => total + code.previousScans, 0);
	return {
		period: period.name,
		from: period.from,
		to: period.to,
		previous_from: period.previous.from,
		previous_to: period.previous.to,
		codes: codes.length,
		scans,
		previous_scans: previousScans,
		...change(scans, previousScans),
		per_code: [...codes]
			.sort(
				(a, b) => b.scans - a.scans || String(a.record.name).localeCompare(String(b.record.name)),
			)
			.map((code) => ({
				...codeFields(code),
				scans: code.scans,
				previous_scans: code.previousScans,
				...change(code.scans, code.previousScans),
			})),
		top: topValues(breakdowns),
	};
}
