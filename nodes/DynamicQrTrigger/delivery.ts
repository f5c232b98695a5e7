import type { IDataObject } from 'n8n-workflow';

/**
 * Repeated deliveries (the service's retries and manual resends keep the `webhook-id`) are
 * dropped across n8n processes: the ids of deliveries that started the workflow are kept in the
 * trigger's static data, which n8n loads from the database for every webhook request and saves
 * after it, so another webhook processor, or this one after a restart, sees them.
 *
 * n8n saves static data whole, without locking: when two processors handle different deliveries
 * at the same moment, the later save can drop the id the other one recorded. Each process
 * therefore also remembers the ids it recorded and writes them back with every save it makes,
 * so a dropped id returns with that processor's next delivery.
 */
/** Ids are kept 24 hours: the service's retries span about 8.5 hours. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** At most this many ids per trigger (oldest dropped), to bound what is stored and saved. */
const KEEP_MAX = 2000;

/** This process's own record, per trigger: id -> when it expires (ms). */
const recordedHere = new Map<string, Map<string, number>>();

type DeliveryRecord = Record<string, number>;

function current(record: unknown, nowMs: number): DeliveryRecord {
	const entries = Object.entries((record ?? {}) as DeliveryRecord).filter(
		([, expires]) => typeof expires === 'number' && expires > nowMs,
	);
	// Newest last; beyond the cap the earliest expiring go.
	entries.sort(([, a], [, b]) => a - b);
	return Object.fromEntries(entries.slice(-KEEP_MAX));
}

/**
 * Whether this delivery already started the workflow, here or in another n8n process; when not,
 * records it. Either way the ids this process recorded before and the stored copy lacks (dropped
 * by another processor's concurrent save) are written back. The stored copy is changed only when
 * something is added, so that n8n saves it only then.
 */
export function isRepeatDelivery(
	stored: IDataObject,
	trigger: string,
	webhookId: string,
	nowMs: number,
): boolean {
	let here = recordedHere.get(trigger);
	if (!here) recordedHere.set(trigger, (here = new Map()));
	const saved = (stored.deliveries ?? {}) as DeliveryRecord;
	const repeat = (here.get(webhookId) ?? 0) > nowMs || (saved[webhookId] ?? 0) > nowMs;
	if (!repeat) here.set(webhookId, nowMs + KEEP_MS);
	const mine = current(Object.fromEntries(here), nowMs);
	recordedHere.set(trigger, new Map(Object.entries(mine)));
	const missing = Object.keys(mine).filter((id) => !((saved[id] ?? 0) > nowMs));
	if (missing.length) stored.deliveries = current({ ...saved, ...mine }, nowMs);
	return repeat;
}

/** Comma-, space- or newline-separated ids, or a list (from an expression). */
export function parseIdList(value: unknown): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,;]+/);
	return [...new Set(list.map((id) => id.trim()).filter((id) => id.length > 0))];
}

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The QR code an event is about: the code itself for `qr_code.*`, the scanned one for scans. */
export function qrCodeIdOf(type: string, data: IDataObject | undefined): string | undefined {
	if (!data) return undefined;
	if (type.startsWith('qr_code.')) return data.id === undefined ? undefined : String(data.id);
	if (type === 'scan.created') {
		const code = asObject(data.qr_code);
		const id = code?.id ?? data.qr_code_id;
		return id === undefined ? undefined : String(id);
	}
	return undefined;
}

/** The card a lead was shared on. */
export function cardIdOf(type: string, data: IDataObject | undefined): string | undefined {
	if (!data || type !== 'lead.created') return undefined;
	const id = asObject(data.card)?.id ?? asObject(data.lead)?.card_id ?? data.card_id;
	return id === undefined ? undefined : String(id);
}

export interface DeliveryFilters {
	events: string[];
	qrCodeIds: string[];
	cardIds: string[];
}

/**
 * Why an event is not for this workflow, or undefined when it is. The QR code filter applies
 * to the events about a QR code (qr_code.*, scan.created); the card filter to lead.created.
 * An event of a kind a filter cannot describe is not held back by that filter.
 */
export function filterOut(
	type: string,
	data: IDataObject | undefined,
	filters: DeliveryFilters,
): string | undefined {
	if (!filters.events.includes(type)) return `event type "${type}" is not selected`;
	const isAboutQrCode = type.startsWith('qr_code.') || type === 'scan.created';
	if (filters.qrCodeIds.length > 0 && isAboutQrCode) {
		const id = qrCodeIdOf(type, data);
		if (id === undefined || !filters.qrCodeIds.includes(id)) return 'QR code not in the filter';
	}
	if (filters.cardIds.length > 0 && type === 'lead.created') {
		const id = cardIdOf(type, data);
		if (id === undefined || !filters.cardIds.includes(id)) return 'card not in the filter';
	}
	return undefined;
}
