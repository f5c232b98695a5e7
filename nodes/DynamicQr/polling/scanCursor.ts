import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/**
 * The scan events' cursor (New Scans, Scan Milestone, Quiet Code): per code of the last poll's
 * list, one count and one flag, and when that poll was. It is the polling trigger's static data,
 * key `scanCursor` (the key `cursor` of New Lead and New QR Code is left alone); this file is the
 * only code that reads or writes it.
 *
 * Per code, New Scans and Quiet Code keep the scans counted at the last poll, Scan Milestone the
 * highest count seen; Quiet Code's flag is 1 while the code's current quiet spell was reported.
 * The codes are packed in one text (shared/packedCodes.ts): about 18 bytes a code, 180 KB for
 * 10,000 codes.
 */
export interface ScanCursor extends IDataObject {
	/** What the cursor belongs to (event + filters + settings); a change of configuration starts over. */
	key: string;
	/** n8n's time of the poll that wrote it, in ms. */
	polledMs: number;
	/** The newest `created_at` (the service's clock) among the codes that poll saw, in ms. */
	newestCreatedMs?: number;
	/** The codes, packed (see above). */
	codes: string;
}

export const STATIC_DATA_KEY = 'scanCursor';

/** The stored cursor for `key`; undefined when there is none or it belongs to another setting. */
export function loadScanCursor(ctx: IPollFunctions, key: string): ScanCursor | undefined {
	const cursor = ctx.getWorkflowStaticData('node')[STATIC_DATA_KEY] as ScanCursor | undefined;
	return cursor && cursor.key === key && typeof cursor.codes === 'string' ? cursor : undefined;
}

export function saveScanCursor(ctx: IPollFunctions, cursor: ScanCursor): void {
	ctx.getWorkflowStaticData('node')[STATIC_DATA_KEY] = cursor;
}
