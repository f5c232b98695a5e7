import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ListPosition } from '../api';

/**
 * The polling trigger's static data, and the only code that reads or writes it. Four keys, each in
 * the format saved workflows hold (frozen: test/staticDataFormats.test.js): `cursor` (New Lead on
 * one card and New QR Code, since 0.1.0), `scanCursor` (the scan events), `leadCursor` (New Lead on
 * all or chosen cards), `endpointCursor` (Webhook Endpoint Stopped). A cursor is saved before
 * poll() returns: n8n 2.x commits the static data with the poll's execution, and loses a later
 * write. Its `key` says what it belongs to (event, card, filters, settings): a change starts over.
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
 * learnt (api/rate.ts).
 */
export interface ScanCursor extends IDataObject {
	key: string;
	polledMs: number;
	newestCreatedMs?: number;
	codes: string;
	met?: number;
	sweep?: ListPosition;
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

/**
 * One static-data key: its cursor loads as undefined when there is none, it is malformed or it
 * belongs to another setting (`key`).
 */
function storedCursor<T extends IDataObject & { key: string }>(
	name: string,
	wellFormed: (cursor: T) => boolean,
) {
	return {
		load(ctx: IPollFunctions, key: string): T | undefined {
			const cursor = stored(ctx)[name] as T | undefined;
			return cursor?.key === key && wellFormed(cursor) ? cursor : undefined;
		},
		save(ctx: IPollFunctions, cursor: T): void {
			stored(ctx)[name] = cursor;
		},
	};
}

export const { load: loadCursor, save: saveCursor } = storedCursor<Cursor>('cursor', (saved) =>
	Array.isArray(saved.recent),
);
export const { load: loadScanCursor, save: saveScanCursor } = storedCursor<ScanCursor>(
	'scanCursor',
	(saved) => typeof saved.codes === 'string',
);
export const { load: loadLeadCursor, save: saveLeadCursor } = storedCursor<LeadCursor>(
	'leadCursor',
	(saved) => Array.isArray(saved.cards),
);
export const { load: loadEndpointCursor, save: saveEndpointCursor } = storedCursor<EndpointCursor>(
	'endpointCursor',
	(saved) => Array.isArray(saved.endpoints),
);
