import type { INodePropertyOptions } from 'n8n-workflow';

/**
 * The service's webhook events (dynamic-qr-api.md, "Events"). `action` is how the nodes panel
 * lists each as one of the trigger's actions (without it n8n lowercases the name).
 */
export const EVENT_OPTIONS: INodePropertyOptions[] = [
	{
		name: 'Lead Created',
		action: 'On Lead Created',
		value: 'lead.created',
		description: 'Someone shared contact data on a card or wrote from a profile',
	},
	{
		name: 'QR Code Created',
		action: 'On QR Code Created',
		value: 'qr_code.created',
		description: 'A QR code was created',
	},
	{
		name: 'QR Code Deleted',
		action: 'On QR Code Deleted',
		value: 'qr_code.deleted',
		description: 'A QR code was deleted; its printed copies now lead to a not-found page',
	},
	{
		name: 'QR Code Updated',
		action: 'On QR Code Updated',
		value: 'qr_code.updated',
		description: 'A QR code changed destination, status or setting',
	},
	{
		name: 'Scan Created',
		action: 'On Scan Created',
		value: 'scan.created',
		description: 'Someone scanned a code (bots and link previews excluded)',
	},
];

export const EVENT_NAMES = EVENT_OPTIONS.map((option) => String(option.value));

/** The chosen events, validated, de-duplicated and sorted (the order never matters). */
export function normaliseEvents(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
	return [...new Set(list.map(String))].filter((name) => EVENT_NAMES.includes(name)).sort();
}

export function sameEvents(a: unknown, b: string[]): boolean {
	if (!Array.isArray(a)) return false;
	const left = [...new Set(a.map(String))].sort();
	return left.length === b.length && left.every((name, i) => name === b[i]);
}
