import type { INodeProperties } from 'n8n-workflow';

import { ID_PATTERN, ID_RULE } from '../../api';
import { dateProperty, requiredWhen } from '../display';
import { listFiltersProperty } from '../listing';
import { type Operation, toItems } from '../run';
import { readPeriod } from './scanReport/period';
import { countScans, reportItems } from './scanReport/scans';
import { codeListQuery } from '../../shared/codeFilters';

export const description: INodeProperties[] = [
	{
		displayName: 'Codes',
		name: 'codesBy',
		type: 'options',
		options: [
			{
				name: 'By Filters',
				value: 'filters',
				description: 'Every code the list filters find (no filter: every code of the account)',
			},
			{ name: 'By IDs', value: 'ids', description: 'The codes whose IDs are given' },
		],
		default: 'filters',
	},
	{ ...listFiltersProperty, displayOptions: { show: { codesBy: ['filters'] } } },
	...requiredWhen('codesBy', 'ids', {
		displayName: 'QR Code IDs',
		name: 'qrCodeIds',
		type: 'string',
		default: '',
		placeholder: 'e.g. a1B2c3D4e5F6, g7H8i9J0k1L2',
		description: 'Comma-separated QR code IDs, or a list of them from an expression',
	}),
	{
		displayName: 'Period',
		name: 'period',
		type: 'options',
		options: [
			{ name: 'From/To', value: 'custom', description: 'The days from From to To' },
			{ name: 'Last 30 Days', value: 'last30Days', description: 'The 30 whole days before today' },
			{ name: 'Last 7 Days', value: 'last7Days', description: 'The 7 whole days before today' },
			{
				name: 'Last Month',
				value: 'lastMonth',
				description: 'The whole calendar month before this one',
			},
			{ name: 'This Month', value: 'thisMonth', description: 'From the 1st up to today' },
			{ name: 'Yesterday', value: 'yesterday', description: 'The day before today' },
		],
		default: 'last7Days',
		description:
			"Days in the workflow's time zone. Each code is compared with the period before, of the same length.",
		builderHint: {
			propertyHint:
				'Last 7 Days on a weekly Schedule Trigger gives the week before the run; Yesterday on a daily one.',
		},
	},
	...requiredWhen('period', 'custom', dateProperty('From', 'First day counted (its date is used)')),
	...requiredWhen('period', 'custom', dateProperty('To', 'Last day counted (its date is used)')),
	{
		displayName: 'Output',
		name: 'reportOutput',
		type: 'options',
		options: [
			{
				name: 'One Item per Code',
				value: 'perCode',
				description:
					'Per code: ID, name, type, short link, period, scans, previous scans and the change, ready for a sheet',
			},
			{
				name: 'One Summary Item',
				value: 'summary',
				description:
					'Totals, the codes with most scans first and the top countries, cities, devices and more, ready for a chat message',
			},
		],
		default: 'summary',
	},
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	// The choices first, then the fields they show: a bad choice is the error named.
	const byIds = parameters.option('codesBy') === 'ids';
	const summary = parameters.option('reportOutput') === 'summary';
	const period = readPeriod(parameters, this.getTimezone());
	// Each ID checked before any request; repeated ones count once.
	const ids = byIds ? parameters.stringList('qrCodeIds', { required: true }) : [];
	const bad = ids.find((id) => !new RegExp(ID_PATTERN).test(id));
	if (bad !== undefined) {
		const property = parameters.property('qrCodeIds');
		throw parameters.fail({ property }, bad, `QR code IDs of ${ID_RULE}, comma-separated`);
	}
	const query = byIds ? {} : codeListQuery(parameters.collection('filters'));
	const get = (id: string) => run.client.getRecord(`/qr-codes/${id}`, itemIndex);
	const records = byIds
		? await Promise.all([...new Set(ids)].map(get))
		: await run.client.all('/qr-codes', query, undefined, { itemIndex });
	// The run's client bounds the requests in flight and paces them at the plan's rate.
	const codes = await Promise.all(
		records.map((record) => countScans(run, itemIndex, period, record, summary)),
	);
	return toItems(reportItems(period, codes, summary));
};
