import type { INodeProperties } from 'n8n-workflow';

import * as create from './create.operation';
import * as del from './delete.operation';
import * as downloadImage from './downloadImage.operation';
import * as get from './get.operation';
import * as getMany from './getMany.operation';
import * as getScanReport from './getScanReport.operation';
import * as getScans from './getScans.operation';
import * as pause from './pause.operation';
import * as resume from './resume.operation';
import * as update from './update.operation';
import * as upsert from './upsert.operation';

export const operations = {
	create,
	get,
	getAll: getMany,
	update,
	upsert,
	pause,
	resume,
	delete: del,
	downloadImage,
	getScans,
	getScanReport,
};

export const description: INodeProperties[] = [
	{
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: ['qrCode'] } },
		options: [
			{
				name: 'Create',
				value: 'create',
				action: 'Create a QR code',
				description: 'Create a dynamic QR code',
			},
			{
				name: 'Create or Update',
				value: 'upsert',
				action: 'Create or update a QR code',
				description:
					'Create a new QR code, or update the current one if it already exists (upsert)',
				builderHint: {
					propertyHint:
						'Use to keep codes in line with a sheet or CRM: a re-run creates only the missing codes and changes only what differs, so it is safe to schedule.',
				},
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a QR code',
				description: 'Delete a QR code: printed copies stop working (Pause is the safer choice)',
				builderHint: {
					propertyHint:
						'Printed copies stop working for good. Use pause to switch a code off so that it can be resumed.',
				},
			},
			{
				name: 'Download Image',
				value: 'downloadImage',
				action: 'Download a QR code image',
				description: 'Download the code as PNG, SVG, PDF or EPS',
			},
			{ name: 'Get', value: 'get', action: 'Get a QR code', description: 'Get one QR code' },
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many QR codes',
				description: 'List QR codes',
			},
			{
				name: 'Get Scan Report',
				value: 'getScanReport',
				action: 'Get a scan report across QR codes',
				description:
					'Scans of many codes in a period (yesterday, last 7 or 30 days, this or last month, or dates) compared with the period before, with totals and top countries and devices',
			},
			{
				name: 'Get Scan Statistics',
				value: 'getScans',
				action: 'Get scan statistics of a QR code',
				description: 'Scans per day and breakdowns by country, device and more',
			},
			{
				name: 'Pause',
				value: 'pause',
				action: 'Pause a QR code',
				description: 'Switch a code off without deleting it',
			},
			{
				name: 'Resume',
				value: 'resume',
				action: 'Resume a QR code',
				description: 'Switch a paused code back on',
			},
			{
				name: 'Update',
				value: 'update',
				action: 'Update a QR code',
				description: 'Change name, design, type or payload (where the code leads)',
			},
		],
		default: 'create',
	},
	// Match By first: Create's fields below are Create or Update's too.
	...upsert.description,
	...create.description,
	...get.description,
	...getMany.description,
	...update.description,
	...pause.description,
	...resume.description,
	...del.description,
	...downloadImage.description,
	...getScans.description,
	...getScanReport.description,
];
