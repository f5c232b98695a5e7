import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { SweepPosition } from './sweep';

/**
 * The polling trigger's static data, and the only code that reads or writes it. Four keys, each in
 * the format saved workflows hold (frozen: test/staticDataFormats.test.js): `cursor` (New Lead on
 * one card and New QR Code, since 0.1.0), `scanCursor` (the scan events), `leadCursor` (New Lead
 * on all or chosen cards) and `endpointCursor` (Webhook Endpoint Stopped). A cursor is saved before poll()
 * returns: n8n 2.x commits the static data with the poll's execution, and loses a later write.
 * Its `key` says what it belongs to (event, card, filters, settings): a change starts over.
 */

/** New Lead and New QR Code (cursor.ts). */
export interface Cursor extends IDataObject {
	key: string;
	/** Newest `created_at` seen, in ms; undefined while nothing at all has been seen. */
	newestMs?: number;
	/** [id, createdAtMs] of the records seen with createdAtMs >= newestMs − window. */
	recent: Array<[string, number]>;
	/** Nothing created at or before it is new (a card of New Lead on several cards: activation). */
	fromMs?: number;
}

/**
 * New Lead on all or chosen cards (cardLeads.ts): per card a Cursor keyed by the card's id, with
 * `readMs` (n8n's time of its last read: the least recently read go first); `sinceMs`, the
 * activation, is every card's `fromMs`.
 */
export interface LeadCursor extends IDataObject {
	key: string;
	polledMs: number;
	sinceMs: number;
	cards: Array<Cursor & { readMs?: number }>;
	learntLimit?: number;
}

/**
 * The scan events (scanEvents.ts): per code of the list a count and a flag (`codes`,
 * shared/packedCodes.ts), the `met` first of them read by the current sweep; n8n's time of the
 * last poll; the newest `created_at` (service clock) seen. A poll reads a part of the list (added
 * keys; a cursor without them starts a sweep): `sweep` says where the next goes on (none: after
 * page 1), `sinceCreatedMs` from when an unknown code is new, `learntLimit` the plan's rate as
 * learnt (polling/share.ts).
 */
export interface ScanCursor extends IDataObject {
	key: string;
	polledMs: number;
	newestCreatedMs?: number;
	codes: string;
	met?: number;
	sweep?: SweepPosition;
	sinceCreatedMs?: number;
	learntLimit?: number;
	/** When the current sweep began, and the one before it (Include Breakdown's first day). */
	sweepStartedMs?: number;
	readSinceMs?: number;
}

/** An endpoint as Webhook Endpoint Stopped last saw it (endpointHealth.ts); `stopped`: reported. */
export interface WatchedEndpoint extends IDataObject {
	id: string;
	url: string;
	stopped?: 'paused' | 'removed' | 'unreachable';
}

export interface EndpointCursor extends IDataObject {
	key: string;
	endpoints: WatchedEndpoint[];
}

const stored = (ctx: IPollFunctions) => ctx.getWorkflowStaticData('node');

/** Undefined when there is none or it belongs to another setting. */
export function loadCursor(ctx: IPollFunctions, key: string): Cursor | undefined {
	const cursor = stored(ctx).cursor as Cursor | undefined;
	return cursor?.key === key && Array.isArray(cursor.recent) ? cursor : undefined;
}

export function saveCursor(ctx: IPollFunctions, cursor: Cursor): void {
	stored(ctx).cursor = cursor;
}

export function loadScanCursor(ctx: IPollFunctions, key: string): ScanCursor | undefined {
	const cursor = stored(ctx).scanCursor as ScanCursor | undefined;
	return cursor?.key === key && typeof cursor.codes === 'string' ? cursor : undefined;
}

export function saveScanCursor(ctx: IPollFunctions, cursor: ScanCursor): void {
	stored(ctx).scanCursor = cursor;
}

export function loadLeadCursor(ctx: IPollFunctions, key: string): LeadCursor | undefined {
	const cursor = stored(ctx).leadCursor as LeadCursor | undefined;
	return cursor?.key === key && Array.isArray(cursor.cards) ? cursor : undefined;
}

export function saveLeadCursor(ctx: IPollFunctions, cursor: LeadCursor): void {
	stored(ctx).leadCursor = cursor;
}

export function loadEndpointCursor(ctx: IPollFunctions, key: string): EndpointCursor | undefined {
	const cursor = stored(ctx).endpointCursor as EndpointCursor | undefined;
	return cursor?.key === key && Array.isArray(cursor.endpoints) ? cursor : undefined;
}

export function saveEndpointCursor(ctx: IPollFunctions, cursor: EndpointCursor): void {
	stored(ctx).endpointCursor = cursor;
}
