import type { INodePropertyOptions } from 'n8n-workflow';

import type { EventName } from '../api';

/**
 * The service's events as the nodes show them (the trigger's Events, Webhook Endpoint › Create's
 * Events). `action` is how the nodes panel lists each as one of the trigger's actions (without it
 * n8n lowercases the name). Keyed by event name, so a new event in api/events.ts fails the build
 * until it is described here.
 */
const SHOWN: Record<EventName, Omit<INodePropertyOptions, 'value'>> = {
	'lead.created': {
		name: 'Lead Created',
		action: 'On Lead Created',
		description: 'Someone shared contact data on a card or wrote from a profile',
	},
	'qr_code.created': {
		name: 'QR Code Created',
		action: 'On QR Code Created',
		description: 'A QR code was created',
	},
	'qr_code.deleted': {
		name: 'QR Code Deleted',
		action: 'On QR Code Deleted',
		description: 'A QR code was deleted; its printed copies now lead to a not-found page',
	},
	'qr_code.updated': {
		name: 'QR Code Updated',
		action: 'On QR Code Updated',
		description: 'A QR code changed destination, status or setting',
	},
	'scan.created': {
		name: 'Scan Created',
		action: 'On Scan Created',
		description: 'Someone scanned a code (bots and link previews excluded)',
	},
};

export const EVENT_OPTIONS: INodePropertyOptions[] = Object.entries(SHOWN).map(
	([value, shown]) => ({ ...shown, value }),
);
