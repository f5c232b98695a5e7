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
import * as updateMany from './qrCode/updateMany.operation';
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
import { showOnlyFor } from './display';
import type { OperationModule } from './run';

/** An operation: its module, and its option of the Operation parameter (its key is the value). */
type Action = Pick<INodePropertyOptions, 'description'> & {
	module: OperationModule;
	/** Unless it is the key's words: "downloadImage" is Download Image, "getAll" Get Many. */
	name?: string;
	/** n8n's wording when the rule does not fit: "Pause a QR code", "Get many QR codes". */
	action?: string;
	hint?: string;
};

const nameOf = (key: string) =>
	key === 'getAll' ? 'Get Many' : key[0].toUpperCase() + key.slice(1).replace(/[A-Z]/g, ' $&');

/**
 * A resource: its Operation parameter (the default named: saved workflows that kept it store no
 * value), then the fields of its operations in the order listed, each shown only for its own.
 */
function resource(name: string, value: string, preset: string, actions: Record<string, Action>) {
	const entries = Object.entries(actions);
	const noun = name.replace(/\b[A-Z][a-z]/g, (start) => start.toLowerCase());
	const options = entries
		.map(([operation, { name = nameOf(operation), action, description, hint }]) => {
			const verb = name[0] + name.slice(1).toLowerCase();
			action ??= verb.endsWith(' many') ? `${verb} ${noun}s` : `${verb} a ${noun}`;
			const builderHint = hint ? { builderHint: { propertyHint: hint } } : {};
			return { name, value: operation, action, description, ...builderHint };
		})
		.sort((a, b) => a.name.localeCompare(b.name));
	const operation: INodeProperties = {
		displayName: 'Operation',
		name: 'operation',
		type: 'options',
		noDataExpression: true,
		displayOptions: { show: { resource: [value] } },
		options,
		default: preset,
	};
	// Keyed "resource:operation", for the router.
	const operations = entries.map(([key, { module }]) => [`${value}:${key}`, module] as const);
	const fields = entries.flatMap(([key, { module }]) =>
		showOnlyFor(value, [key], module.description),
	);
	return { name, value, options, operations, description: [operation, ...fields] };
}

/** The action node's resources, in the order the Resource parameter lists them. */
export const RESOURCES = [
	resource('Account', 'account', 'get', {
		get: {
			module: account,
			action: 'Get the account',
			description: 'Get the account, its plan, the key in use and its limits',
		},
	}),
	resource('Card', 'card', 'get', {
		get: {
			module: card,
			description: 'Get one digital business card with its page and short link',
		},
		getAll: { module: cards, description: 'List the cards' },
	}),
	resource('Lead', 'lead', 'getAll', {
		getAll: { module: leads, description: 'List the contacts shared on a card, newest first' },
	}),
	resource('Logo', 'logo', 'upload', {
		upload: {
			module: logoUpload,
			description: 'Upload a logo image; use the answered ID as Logo Upload ID when creating codes',
		},
	}),
	// Match By first: Create's fields below are Create or Update's too.
	resource('QR Code', 'qrCode', 'create', {
		upsert: {
			module: upsert,
			name: 'Create or Update',
			description: 'Create a new QR code, or update the current one if it already exists (upsert)',
			hint: 'Use to keep codes in line with a sheet or CRM: a re-run creates only the missing codes and changes only what differs, so it is safe to schedule.',
		},
		create: { module: create, description: 'Create a dynamic QR code' },
		get: { module: qrCode, description: 'Get one QR code' },
		getAll: { module: qrCodes, description: 'List QR codes' },
		// Before Update: its filters come first, then Update's fields it shares.
		updateMany: {
			module: updateMany,
			description:
				'Change every code that matches the filters the same way, with a dry run first and the values before in each item',
			hint: "Dry Run is on by default: show its output to the user, then turn it off to write. Keep each item's before object: QR Code Update with those values undoes the change.",
		},
		update: {
			module: update,
			description: 'Change name, design, type or payload (where the code leads)',
		},
		pause: { module: pause, description: 'Switch a code off without deleting it' },
		resume: { module: resume, description: 'Switch a paused code back on' },
		delete: {
			module: del,
			description: 'Delete a QR code: printed copies stop working (Pause is the safer choice)',
			hint: 'Printed copies stop working for good. Use pause to switch a code off so that it can be resumed.',
		},
		downloadImage: {
			module: downloadImage,
			action: 'Download a QR code image',
			description: 'Download the code as PNG, SVG, PDF or EPS',
		},
		getScans: {
			module: getScans,
			name: 'Get Scan Statistics',
			action: 'Get scan statistics of a QR code',
			description: 'Scans per day and breakdowns by country, device and more',
		},
		getScanReport: {
			module: getScanReport,
			action: 'Get a scan report across QR codes',
			description:
				'Scans of many codes in a period (yesterday, last 7 or 30 days, this or last month, or dates) compared with the period before, with totals and top countries and devices',
		},
	}),
	resource('Static QR Code', 'staticQrCode', 'generate', {
		generate: {
			module: generate,
			action: 'Generate a static QR code image',
			description: 'Make a QR image that encodes the content itself; nothing is saved',
			hint: 'The image holds the content itself: it cannot be re-pointed, paused or counted later. Use QR Code Create for a code to manage after printing.',
		},
	}),
	resource('Webhook Endpoint', 'webhookEndpoint', 'create', {
		create: {
			module: endpointCreate,
			description: 'Register an address that receives signed events',
		},
		getAll: { module: endpoints, description: 'List the webhook endpoints' },
		delete: { module: endpointDelete, description: 'Stop sending events to an address' },
	}),
];
