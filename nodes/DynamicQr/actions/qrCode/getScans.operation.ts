import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';
import { getRecordId, qrCodeLocator } from '../shared/locators';
import { toItems } from '../shared/output';
import { toCalendarDate } from '../shared/values';
import { showOnlyFor } from '../shared/display';

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
): Promise<INodeExecutionData[]> {
	const id = getRecordId(this, 'qrCodeId', itemIndex);
	const qs: IDataObject = {};
	const from = toCalendarDate(this.getNodeParameter('from', itemIndex, ''));
	const to = toCalendarDate(this.getNodeParameter('to', itemIndex, ''));
	if (from) qs.from = from;
	if (to) qs.to = to;
	const statistics = unwrap(
		await apiRequest(this, 'GET', `/qr-codes/${id}/scans`, { qs, itemIndex }),
	);
	if (this.getNodeParameter('output', itemIndex) !== 'days') {
		return toItems({ qr_code_id: id, ...statistics });
	}
	const days = (statistics.days as IDataObject[] | undefined) ?? [];
	return toItems(days.map((day) => ({ qr_code_id: id, date: day.date, scans: day.scans })));
}
