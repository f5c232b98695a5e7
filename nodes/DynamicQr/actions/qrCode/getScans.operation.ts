import type { INodeProperties } from 'n8n-workflow';

import { scansPerDay, unwrap } from '../../api';
import { qrCodeLocator } from '../locators';
import { calendarDay } from './scanReport/period';
import { dateProperty } from '../display';
import { type Operation, toItems } from '../run';

export const description: INodeProperties[] = [
	qrCodeLocator,
	dateProperty('From', 'First day counted; leave empty for the API default (the last 30 days)'),
	dateProperty('To', 'Last day counted; leave empty for today'),
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

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const range = ['from', 'to'].map((key) => [key, calendarDay(parameters.string(key))]);
	const qs = Object.fromEntries(range.filter(([, day]) => day));
	const output = parameters.option('output');
	const answer = await run.client.request('GET', `/qr-codes/${id}/scans`, { qs, itemIndex });
	const statistics = unwrap(answer);
	if (output !== 'days') return toItems({ qr_code_id: id, ...statistics });
	const fix = 'the Statistics output gives the answer as it is';
	const days = scansPerDay(this.getNode(), statistics, itemIndex, fix);
	return toItems(days.map((day) => ({ qr_code_id: id, ...day })));
};
