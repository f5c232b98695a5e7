import type { INodePropertyOptions } from 'n8n-workflow';

import type { EventName } from '../api';

/**
 * The service's events as the nodes show them; `action` too, or n8n lowercases the name in the
 * nodes panel. Keyed by event name, so a new event in api/events.ts fails the build until here.
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
