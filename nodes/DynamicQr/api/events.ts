/** The service's webhook events (dynamic-qr-api.md, "Events"). */
export const EVENT_NAMES = [
	'lead.created',
	'qr_code.created',
	'qr_code.deleted',
	'qr_code.updated',
	'scan.created',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const isEventName = (name: string): name is EventName =>
	(EVENT_NAMES as readonly string[]).includes(name);

/** The chosen events, validated, de-duplicated and sorted (the order never matters). */
export function normaliseEvents(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
	return [...new Set(list.map(String))].filter(isEventName).sort();
}

export function sameEvents(a: unknown, b: string[]): boolean {
	if (!Array.isArray(a)) return false;
	const left = [...new Set(a.map(String))].sort();
	return left.length === b.length && left.every((name, i) => name === b[i]);
}
