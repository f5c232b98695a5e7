import type { INodePropertyOptions } from 'n8n-workflow';

import type { EventName } from '../api';

/**
 * The service's events as the nodes show them (the trigger's Events, Webhook Endpoint › Create's
 * Events): name and description. Each is also one of the trigger's actions in the nodes panel,
 * "On <name>" (without `action` n8n lowercases the name). Keyed by event name, so a new event in
 * api/events.ts fails the build until it is described here.
 */
const SHOWN: Record<EventName, [name: string, description: string]> = {
	'lead.created': ['Lead Created', 'Someone shared contact data on a card or wrote from a profile'],
	'qr_code.created': ['QR Code Created', 'A QR code was created'],
	'qr_code.deleted': [
		'QR Code Deleted',
		'A QR code was deleted; its printed copies now lead to a not-found page',
	],
	'qr_code.updated': ['QR Code Updated', 'A QR code changed destination, status or setting'],
	'scan.created': ['Scan Created', 'Someone scanned a code (bots and link previews excluded)'],
};

export const EVENT_OPTIONS: INodePropertyOptions[] = Object.entries(SHOWN).map(
	([value, [name, description]]) => ({ name, action: `On ${name}`, description, value }),
);
