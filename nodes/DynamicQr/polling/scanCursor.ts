import type { IDataObject, IPollFunctions } from 'n8n-workflow';

/**
 * The scan events' cursor (New Scans, Scan Milestone, Quiet Code): per code of the last poll's
 * list, one count and one flag, and when that poll was. It is the polling trigger's static data,
 * key `scanCursor` (the key `cursor` of New Lead and New QR Code is left alone); this file is the
 * only code that reads or writes it.
 *
 * The codes are packed in one text, `id,count[,1]` joined by `;` (the id URI-encoded, so a `,`
 * or `;` in it cannot break an entry): about 18 bytes a code, 180 KB for 10,000 codes.
 */
export interface CodeState {
	/** New Scans and Quiet Code: the scans counted at the last poll; Scan Milestone: the highest count seen. */
	count: number;
	/** Quiet Code: 1 while the code's current quiet spell has been reported. */
	flag: number;
}

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

/** The packed codes as a map from id to state. */
export function unpackCodes(packed: string): Map<string, CodeState> {
	const codes = new Map<string, CodeState>();
	if (!packed) return codes;
	for (const entry of packed.split(';')) {
		const [id, count, flag] = entry.split(',');
		const n = Number(count);
		if (!id || !Number.isFinite(n)) continue;
		try {
			codes.set(decodeURIComponent(id), { count: n, flag: flag === '1' ? 1 : 0 });
		} catch {
			// An entry that is not ours: dropped, the code is counted again from the next poll.
		}
	}
	return codes;
}

/** The map packed again, in its order. */
export function packCodes(codes: Map<string, CodeState>): string {
	const entries: string[] = [];
	for (const [id, { count, flag }] of codes) {
		entries.push(`${encodeURIComponent(id)},${count}${flag ? ',1' : ''}`);
	}
	return entries.join(';');
}
