/** The service's webhook events (dynamic-qr-api.md, "Events"). */
export const EVENT_NAMES = [
	'lead.created',
	'qr_code.created',
	'qr_code.deleted',
	'qr_code.updated',
	'scan.created',
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

const unique = (names: unknown[]) => [...new Set(names.map(String))].sort();

/** The chosen events, validated, de-duplicated and sorted (the order never matters). */
export function normaliseEvents(value: unknown): string[] {
	const list = Array.isArray(value) ? value : typeof value === 'string' && value ? [value] : [];
	return unique(list).filter((name) => (EVENT_NAMES as readonly string[]).includes(name));
}

export const sameEvents = (a: unknown, b: string[]): boolean =>
	Array.isArray(a) && JSON.stringify(unique(a)) === JSON.stringify(b);
