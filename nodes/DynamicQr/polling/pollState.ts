import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { createdRecordKey, type ListPosition } from '../api';

/**
 * What a poll keeps and gives. Its static data (only this code reaches it) holds four keys in the
 * formats saved workflows hold (test/staticDataFormats.test.js). A cursor is saved before poll()
 * returns: n8n 2.x commits the static data with the poll's execution, and loses a later write.
 * Its `key` says what it belongs to (event, card, filters, settings): a change starts over.
 */

/** `cursor`: New Lead on one card and New QR Code (cursor.ts, since 0.1.0). */
export interface Cursor extends IDataObject {
	key: string;
	newestMs?: number; // the newest `created_at` seen, in ms; none while nothing has been seen
	recent: Array<[string, number]>; // [id, createdAtMs] of those seen since newestMs − window
	fromMs?: number; // nothing created at or before it is new (New Lead on more cards: activation)
}

/** A card's cursor; `readMs`: n8n's time of its last read (the least recently read go first). */
export type CardCursor = Cursor & { readMs?: number };

/** `leadCursor`: New Lead on several cards (cardLeads.ts); `sinceMs`: activation, each `fromMs`. */
export interface LeadCursor extends IDataObject {
	key: string;
	polledMs: number;
	sinceMs: number;
	cards: CardCursor[];
	learntLimit?: number;
}

/** `scanCursor`: the scan events (scanEvents.ts; its keys in docs/triggers.md). */
export interface ScanCursor extends IDataObject {
	key: string;
	/** n8n's clock; the `created_at` times (`newestCreatedMs`, `sinceCreatedMs`) are the service's. */
	polledMs: number;
	newestCreatedMs?: number;
	/** Per code a count and a flag (shared/packedCodes.ts), the `met` first read by this sweep. */
	codes: string;
	met?: number;
	sweep?: ListPosition;
	sinceCreatedMs?: number;
	learntLimit?: number;
	/** When the current sweep began, and the one before it (Include Breakdown's first day). */
	sweepStartedMs?: number;
	readSinceMs?: number;
}

/** `endpointCursor`'s endpoints, as Webhook Endpoint Stopped last saw them; `stopped`: reported. */
export interface WatchedEndpoint extends IDataObject {
	id: string;
	url: string;
	stopped?: 'paused' | 'removed' | 'unreachable';
}

/** `checkedAt` (from 0.3.0): the poll that saved it, where a spell found by the next one begins. */
export type EndpointCursor = IDataObject & {
	key: string;
	endpoints: WatchedEndpoint[];
	checkedAt?: string;
};

/** One key's cursor, checked by its main field; none when malformed or of another `key`. */
function storedCursor<T extends IDataObject & { key: string }>(name: string, main: keyof T) {
	const load = (ctx: IPollFunctions, key: string): T | undefined => {
		const cursor = ctx.getWorkflowStaticData('node')[name] as T | undefined;
		const value = cursor?.[main];
		const fits = main === 'codes' ? typeof value === 'string' : Array.isArray(value);
		return cursor?.key === key && fits ? cursor : undefined;
	};
	const save = (ctx: IPollFunctions, cursor: T) => {
		ctx.getWorkflowStaticData('node')[name] = cursor;
	};
	return [load, save] as const;
}

export const [loadCursor, saveCursor] = storedCursor<Cursor>('cursor', 'recent');
export const [loadScanCursor, saveScanCursor] = storedCursor<ScanCursor>('scanCursor', 'codes');
export const [loadLeadCursor, saveLeadCursor] = storedCursor<LeadCursor>('leadCursor', 'cards');
export const [loadEndpointCursor, saveEndpointCursor] = storedCursor<EndpointCursor>(
	'endpointCursor',
	'endpoints',
);

/** Leads and new codes keyed as the webhook trigger keys them (docs/triggers.md, "Event keys"). */
export const createdEvents = (type: 'lead.created' | 'qr_code.created', records: IDataObject[]) =>
	records.map((record) => ({ ...record, event_key: createdRecordKey(type, record) ?? null }));

/** A poll's items, or null; "Fetch Test Event" with none fails with `none` (message, fix). */
export function emit(ctx: IPollFunctions, items: IDataObject[], none?: [string, string]) {
	if (items.length) return [ctx.helpers.returnJsonArray(items)];
	if (none && ctx.getMode() === 'manual')
		throw new NodeOperationError(ctx.getNode(), none[0], { description: none[1] });
	return null;
}
