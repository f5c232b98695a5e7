import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { NodeOperationError } from 'n8n-workflow';

import { asObject, unwrap } from '../../api';
import { qrCodeLocator } from '../shared/locators';
import { operationParameters } from '../shared/parameters';
import { toItems } from '../shared/output';
import { calendarDay } from '../shared/values';
import { showOnlyFor } from '../shared/display';
import type { ActionRun } from '../shared/run';

const properties: INodeProperties[] = [
	qrCodeLocator,
	{
		displayName: 'From',
		name: 'from',
		type: 'dateTime',
		default: '',
		description: 'First day counted; leave empty for the API default (the last 30 days)',
	},
	{
		displayName: 'To',
		name: 'to',
		type: 'dateTime',
		default: '',
		description: 'Last day counted; leave empty for today',
	},
	{
		displayName: 'Output',
		name: 'output',
		type: 'options',
		options: [
			{
				name: 'Statistics',
				value: 'statistics',
				description: 'One item with the totals, the scans per day and the breakdowns, as returned',
			},
			{
				name: 'One Item per Day',
				value: 'days',
				description: 'One item per day with its date and scan count, ready for a spreadsheet',
			},
		],
		default: 'statistics',
	},
];

export const description = showOnlyFor('qrCode', 'getScans', properties);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	const parameters = operationParameters(this, itemIndex, description);
	const id = parameters.recordId('qrCodeId');
	const qs: IDataObject = {};
	const from = parameters.string('from');
	const to = parameters.string('to');
	if (from) qs.from = calendarDay(from);
	if (to) qs.to = calendarDay(to);
	const output = parameters.option('output');
	const statistics = unwrap(
		await run.client.request('GET', `/qr-codes/${encodeURIComponent(id)}/scans`, { qs, itemIndex }),
	);
	if (output !== 'days') {
		return toItems({ qr_code_id: id, ...statistics });
	}
	const days = scansPerDay(statistics.days);
	if (!days) {
		throw new NodeOperationError(
			this.getNode(),
			`The service answered scans per day in a shape this node does not know: ${describeShape(statistics.days)}`,
			{
				itemIndex,
				description:
					'Choose the Statistics output to get the answer as it is, and report the shape to the maintainers of this node.',
			},
		);
	}
	return toItems(days.map((day) => ({ qr_code_id: id, ...day })));
}

interface DayCount {
	date: string;
	scans: number;
}

/** One day's entry of a list: `{ date, scans }` or `{ date, count }`. */
function dayEntry(entry: unknown): DayCount | undefined {
	const day = asObject(entry);
	const scans = day?.scans ?? day?.count;
	if (typeof day?.date !== 'string' || typeof scans !== 'number') return undefined;
	return { date: day.date, scans };
}

/**
 * Scans per day, whichever shape the service gives them (the reference does not show it): a list
 * of `{ date, scans }` or `{ date, count }`, or a map from date to count. Undefined for anything
 * else. Absent days mean no statistics: no items.
 */
// Readings "scans-days-count" ({ date, count }) and "scans-days-map" (a map of date to count).
function scansPerDay(days: unknown): DayCount[] | undefined {
	if (days === undefined || days === null) return [];
	if (Array.isArray(days)) {
		const entries = days.map(dayEntry);
		return entries.every((entry) => entry !== undefined) ? (entries as DayCount[]) : undefined;
	}
	const map = asObject(days);
	if (!map) return undefined;
	const entries = Object.entries(map);
	if (!entries.every(([, scans]) => typeof scans === 'number')) return undefined;
	return entries
		.map(([date, scans]) => ({ date, scans: scans as number }))
		.sort((a, b) => a.date.localeCompare(b.date));
}

/** What the service sent, shortened for an error message (scan counts hold nothing secret). */
function describeShape(value: unknown): string {
	const text = JSON.stringify(value) ?? String(value);
	return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
