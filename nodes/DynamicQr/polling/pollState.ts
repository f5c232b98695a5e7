import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/**
 * The polling trigger's static data, and the only code that reads or writes it. Two keys, each in
 * the format saved workflows hold (frozen: test/staticDataFormats.test.js): `cursor` (New Lead and
 * New QR Code, since 0.1.0) and `scanCursor` (the scan events). A poll saves its cursor before
 * poll() returns: with n8n's durable poll cursors (2.x) the static data is a row committed with
 * the poll's execution, and a write after that is lost.
 */

/** New Lead and New QR Code (cursor.ts). */
export interface Cursor extends IDataObject {
	/** What the cursor belongs to (event + card); a change of configuration starts over. */
	key: string;
	/** Newest `created_at` seen, in ms; undefined while nothing at all has been seen. */
	newestMs?: number;
	/** [id, createdAtMs] of the records seen with createdAtMs >= newestMs − window. */
	recent: Array<[string, number]>;
}

/**
 * The scan events (scanEvents.ts): per code of the last poll's list, one count and one flag
 * (shared/packedCodes.ts), and when that poll was.
 */
export interface ScanCursor extends IDataObject {
	/** What the cursor belongs to (event + filters + settings); a change of configuration starts over. */
	key: string;
	/** n8n's time of the poll that wrote it, in ms. */
	polledMs: number;
	/** The newest `created_at` (the service's clock) among the codes that poll saw, in ms. */
	newestCreatedMs?: number;
	codes: string;
}

/** The stored cursor for `key`; undefined when there is none or it belongs to another setting. */
export function loadCursor(ctx: IPollFunctions, key: string): Cursor | undefined {
	const cursor = ctx.getWorkflowStaticData('node').cursor as Cursor | undefined;
	return cursor && cursor.key === key && Array.isArray(cursor.recent) ? cursor : undefined;
}

export function saveCursor(ctx: IPollFunctions, cursor: Cursor): void {
	ctx.getWorkflowStaticData('node').cursor = cursor;
}

/** The stored scan cursor for `key`, as loadCursor. */
export function loadScanCursor(ctx: IPollFunctions, key: string): ScanCursor | undefined {
	const cursor = ctx.getWorkflowStaticData('node').scanCursor as ScanCursor | undefined;
	return cursor && cursor.key === key && typeof cursor.codes === 'string' ? cursor : undefined;
}

export function saveScanCursor(ctx: IPollFunctions, cursor: ScanCursor): void {
	ctx.getWorkflowStaticData('node').scanCursor = cursor;
}
