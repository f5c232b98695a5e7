import type { INodeProperties, INodePropertyOptions } from 'n8n-workflow';

import * as account from './account/get.operation';
import * as card from './card/get.operation';
import * as cards from './card/getMany.operation';
import * as leads from './lead/getMany.operation';
import * as logoUpload from './logo/upload.operation';
import * as upsert from './qrCode/upsert.operation';
import * as create from './qrCode/create.operation';
import * as qrCode from './qrCode/get.operation';
import * as qrCodes from './qrCode/getMany.operation';
import * as update from './qrCode/update.operation';
import * as pause from './qrCode/pause.operation';
import * as resume from './qrCode/resume.operation';
import * as del from './qrCode/delete.operation';
import * as downloadImage from './qrCode/downloadImage.operation';
import * as getScans from './qrCode/getScans.operation';
import * as getScanReport from './qrCode/getScanReport.operation';
import * as generate from './staticQrCode/generate.operation';
import * as endpointCreate from './webhookEndpoint/create.operation';
import * as endpoints from './webhookEndpoint/getMany.operation';
import * as endpointDelete from './webhookEndpoint/delete.operation';
import type { OperationModule } from './run';

/**
 * A resource: its Operation parameter (`options`, the first the default), then the fields of its
 * `operations` (by option value) in the order they are listed.
 */
function resource(
	name: string,
	value: string,
	operations: Record<string, OperationModule>,
	options: INodePropertyOptions[],
) {
	const first = options[0].value;
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options,
		default: first,
	};
	const fields = Object.values(operations).flatMap((module) => module.description);
	return { name, value, operations, description: [operation, ...fields] };
}

/** The action node's resources, in the order the Resource parameter lists them. */
export const RESOURCES = [
	resource('Account', 'account', { get: account }, [
		{
			name: 'Get',
			value: 'get',
			action: 'Get the account',
			description: 'Get the account, its plan, the key in use and its limits',
		},
	]),
	resource('Card', 'card', { get: card, getAll: cards }, [
		{
			name: 'Get',
			value: 'get',
			action: 'Get a card',
			description: 'Get one digital business card with its page and short link',
		},
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many cards',
			description: 'List the cards',
		},
	]),
	resource('Lead', 'lead', { getAll: leads }, [
		{
			name: 'Get Many',
			value: 'getAll',
			action: 'Get many leads',
			description: 'List the contacts shared on a card, newest first',
		},
	]),
	resource('Logo', 'logo', { upload: logoUpload }, [
		{
			name: 'Upload',
			value: 'upload',
			action: 'Upload a logo',
			description: 'Upload a logo image; use the answered ID as Logo Upload ID when creating codes',
		},
	]),
	// Match By first: Create's fields below are Create or Update's too.
	resource(
		'QR Code',
		'qrCode',
		{
			upsert,
			create,
			get: qrCode,
			getAll: qrCodes,
			update,
			pause,
			resume,
			delete: del,
			downloadImage,
			getScans,
			getScanReport,
		},
		[
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
	),
	resource('Static QR Code', 'staticQrCode', { generate }, [
		{
			name: 'Generate',
			value: 'generate',
			action: 'Generate a static QR code image',
			description: 'Make a QR image that encodes the content itself; nothing is saved',
			builderHint: {
				propertyHint:
					'The image holds the content itself: it cannot be re-pointed, paused or counted later. Use QR Code Create for a code to manage after printing.',
			},
		},
	]),
	resource(
		'Webhook Endpoint',
		'webhookEndpoint',
		{ create: endpointCreate, getAll: endpoints, delete: endpointDelete },
		[
			{
				name: 'Create',
				value: 'create',
				action: 'Create a webhook endpoint',
				description: 'Register an address that receives signed events',
			},
			{
				name: 'Delete',
				value: 'delete',
				action: 'Delete a webhook endpoint',
				description: 'Stop sending events to an address',
			},
			{
				name: 'Get Many',
				value: 'getAll',
				action: 'Get many webhook endpoints',
				description: 'List the webhook endpoints',
			},
		],
	),
];
