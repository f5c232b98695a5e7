import type { IDataObject, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { recordId, scanCount, timeMs, type ApiClient } from '../api';
import { codeListQuery } from '../shared/codeFilters';
import { packCodes, unpackCodes, type CodeState } from '../shared/packedCodes';
import { milestoneRule } from './milestones';
import { addBreakdowns, newScansRule } from './newScans';
import { pollingParameters, type ScanEvent } from './pollingProperties';
import { loadScanCursor, saveScanCursor, type ScanCursor } from './pollState';
import { quietRule } from './quiet';

/** A code of the list as the scan events read it; its times in ms, NaN when unreadable or none. */
export type CodeView = NonNullable<ReturnType<typeof codeView>>;

type Step = { state: CodeState; items: IDataObject[] };
export interface ScanRule {
	/** What else belongs to the cursor's key (a change starts over). */
	settings?: string;
	next(code: CodeView, before: CodeState, nowMs: number): Step;
	/** Manual "Fetch Test Event": an item for the most telling code, shaped like the event's. */
	sample(codes: CodeView[], nowMs: number): IDataObject | undefined;
}

function codeView(record: IDataObject) {
	const id = recordId(record);
	if (!id) return undefined;
	const { name, type, short_url } = record;
	return {
		record,
		id,
		/** What every scan event's item starts with. */
		summary: { id: record.id, name, type, short_url },
		scans: scanCount(record),
		createdMs: timeMs(record.created_at),
		lastScannedMs: record.last_scanned_at ? timeMs(record.last_scanned_at) : NaN,
	};
}

/**
 * Oldest first. An unknown code created since the last poll counts from 0; other unknown codes
 * (the first poll, new to the filters) are recorded, their items dropped; unlisted ones leave.
 */
function foldCodes(rule: ScanRule, codes: CodeView[], nowMs: number, cursor?: ScanCursor) {
	const known = cursor ? unpackCodes(cursor.codes) : new Map<string, CodeState>();
	const newSinceMs = cursor ? (cursor.newestCreatedMs ?? cursor.polledMs) : Infinity;
	const next = new Map<string, CodeState>();
	const items: IDataObject[] = [];
	for (const code of [...codes].reverse()) {
		if (next.has(code.id)) continue; // a code listed twice (the list moved between pages)
		const before =
			known.get(code.id) ?? (code.createdMs > newSinceMs ? { count: 0, flag: 0 } : undefined);
		const result = rule.next(code, before ?? { count: code.scans, flag: 0 }, nowMs);
		next.set(code.id, result.state);
		if (before) items.push(...result.items);
	}
	return { codes: next, items };
}

/** The codes (filtered as QR Code › Get Many) compared with the last poll's (docs/triggers.md). */
export async function pollScanEvent(ctx: IPollFunctions, client: ApiClient, event: ScanEvent) {
	// Every setting is read (and checked) before any request.
	const rule =
		event === 'newScans' ? newScansRule : (event === 'quietCode' ? quietRule : milestoneRule)(ctx);
	const parameters = pollingParameters(ctx);
	const qs = codeListQuery(parameters.collection('filters'));
	const includeBreakdown = event === 'newScans' && parameters.boolean('includeBreakdown');
	const nowMs = Date.now();
	const codes = (await client.all('/qr-codes', qs)).flatMap((record) => codeView(record) ?? []);

	if (ctx.getMode() === 'manual') {
		const sample = rule.sample(codes, nowMs);
		if (sample) return [ctx.helpers.returnJsonArray([sample])];
		throw new NodeOperationError(
			ctx.getNode(),
			codes.length ? 'No QR code has been scanned yet' : 'No QR code matches the filters',
			{ description: 'Create or scan a QR code, then fetch a test event again.' },
		);
	}

	const key = [event, rule.settings ?? '', JSON.stringify(qs)].join('|');
	const cursor = loadScanCursor(ctx, key);
	const folded = foldCodes(rule, codes, nowMs, cursor);
	const newest = codes.reduce(
		(max, code) => (code.createdMs > max ? code.createdMs : max),
		cursor?.newestCreatedMs ?? -Infinity,
	);
	if (includeBreakdown && cursor && folded.items.length) {
		await addBreakdowns(client, folded.items, cursor.polledMs, nowMs);
	}
	saveScanCursor(ctx, {
		key,
		polledMs: nowMs,
		...(Number.isFinite(newest) ? { newestCreatedMs: newest } : {}),
		codes: packCodes(folded.codes),
	});
	return folded.items.length ? [ctx.helpers.returnJsonArray(folded.items)] : null;
}
