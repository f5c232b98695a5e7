import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import { recordId, scanCount, timeMs, type ApiClient } from '../api';
import { codeListQuery } from '../shared/codeFilters';
import { packCodes, unpackCodes, type CodeState } from '../shared/packedCodes';
import { milestoneRule } from './milestones';
import { addBreakdowns, newScansRule } from './newScans';
import { pollingParameters, shareSettings, type ScanEvent } from './pollingProperties';
import { emit, loadScanCursor, saveScanCursor, type ScanCursor } from './pollState';
import { quietRule } from './quiet';

/** A code of the list as the scan events read it; its times in ms, NaN when unreadable or none. */
export type CodeView = NonNullable<ReturnType<typeof codeView>>;

type Step = { state: CodeState; items: IDataObject[] };
export interface ScanRule {
	settings?: string; // what else belongs to the cursor's key (a change starts over)
	next(code: CodeView, before: CodeState, nowMs: number): Step;
	/** Manual "Fetch Test Event": an item for the most telling code, shaped like the event's. */
	sample(codes: CodeView[], nowMs: number): IDataObject | undefined;
}

function codeView(record: IDataObject, readAt: string) {
	const id = recordId(record);
	if (!id) return undefined;
	const { name, type, short_url } = record;
	return {
		record,
		id,
		/** What every scan event's item starts with; `read_at` is when its count was read. */
		summary: { id: record.id, name, type, short_url, read_at: readAt },
		scans: scanCount(record),
		createdMs: timeMs(record.created_at),
		lastScannedMs: record.last_scanned_at ? timeMs(record.last_scanned_at) : NaN,
	};
}

/**
 * Oldest first. An unknown code created after activation counts from 0; others are recorded as
 * read, with items (`lower_bound`) only if scanned since the sweep began. The codes the sweep read
 * come first in the cursor; those it never read leave when it ends (deleted, or out of the filters).
 */
function foldCodes(
	rule: ScanRule,
	codes: CodeView[],
	{ nowMs, sweepStartedMs, ended }: { nowMs: number; sweepStartedMs: number; ended: boolean },
	cursor?: ScanCursor,
) {
	const known = cursor ? unpackCodes(cursor.codes) : new Map<string, CodeState>();
	const newSinceMs = cursor
		? (cursor.sinceCreatedMs ?? cursor.newestCreatedMs ?? cursor.polledMs)
		: Infinity;
	const read = new Map<string, CodeState>();
	const items: IDataObject[] = [];
	for (const code of [...codes].reverse()) {
		if (read.has(code.id)) continue; // a code listed twice (the list moved between pages)
		const atLeastOne = cursor !== undefined && code.lastScannedMs > sweepStartedMs;
		const before =
			known.get(code.id) ?? (code.createdMs > newSinceMs ? { count: 0, flag: 0 } : undefined);
		const guess = { count: atLeastOne ? Math.max(0, code.scans - 1) : code.scans, flag: 0 };
		const result = rule.next(code, before ?? guess, nowMs);
		read.set(code.id, result.state);
		if (before) items.push(...result.items);
		else if (atLeastOne)
			items.push(...result.items.map((item) => ({ ...item, lower_bound: true })));
	}
	const entries = [...known];
	const notRead = ([id]: [string, CodeState]) => !read.has(id);
	const metEarlier = entries.slice(0, cursor?.met ?? 0).filter(notRead);
	const unread = ended ? [] : entries.slice(cursor?.met ?? 0).filter(notRead);
	const next = new Map([...metEarlier, ...read, ...unread]);
	return { codes: next, met: ended ? 0 : metEarlier.length + read.size, items };
}

/** The codes (filtered as QR Code › Get Many) compared with their last reading (docs/triggers.md). */
export async function pollScanEvent(ctx: IPollFunctions, client: ApiClient, event: ScanEvent) {
	// Every setting is read (and checked) before any request.
	const rule =
		event === 'newScans' ? newScansRule : (event === 'quietCode' ? quietRule : milestoneRule)(ctx);
	const parameters = pollingParameters(ctx);
	const qs = codeListQuery(parameters.collection('filters'));
	const includeBreakdown = event === 'newScans' && parameters.boolean('includeBreakdown');
	const key = [event, rule.settings ?? '', JSON.stringify(qs)].join('|');
	const isManual = ctx.getMode() === 'manual';
	const cursor = isManual ? undefined : loadScanCursor(ctx, key);
	const nowMs = Date.now();
	const readAt = new Date(nowMs).toISOString();
	const settings = shareSettings(parameters, cursor, nowMs);
	const sweep = await client.read({ path: '/qr-codes', qs, share: settings, from: cursor?.sweep });
	const codes = sweep.records.flatMap((record) => codeView(record, readAt) ?? []);

	if (isManual) {
		const sample = rule.sample(codes, nowMs);
		return emit(ctx, sample ? [sample] : [], [
			codes.length ? 'No QR code has been scanned yet' : 'No QR code matches the filters',
			'Create or scan a QR code, then fetch a test event again.',
		]);
	}

	// A code read now was read last in the sweep before this one, at the earliest as it began.
	const sweepStartedMs = cursor?.sweep ? (cursor.sweepStartedMs ?? cursor.polledMs) : nowMs;
	const folded = foldCodes(rule, codes, { nowMs, sweepStartedMs, ended: !sweep.next }, cursor);
	const newest = codes.reduce(
		(max, code) => (code.createdMs > max ? code.createdMs : max),
		cursor?.newestCreatedMs ?? -Infinity,
	);
	const readSinceMs = cursor?.sweep
		? (cursor.readSinceMs ?? cursor.polledMs)
		: (cursor?.sweepStartedMs ?? cursor?.polledMs);
	if (includeBreakdown && readSinceMs !== undefined)
		await addBreakdowns(client, folded.items, readSinceMs, nowMs);
	const since = cursor ? (cursor.sinceCreatedMs ?? cursor.newestCreatedMs) : newest;
	const learnt = client.rate.learntLimit(settings);
	saveScanCursor(ctx, {
		key,
		polledMs: nowMs,
		...(Number.isFinite(newest) ? { newestCreatedMs: newest } : {}),
		codes: packCodes(folded.codes),
		...(folded.met ? { met: folded.met } : {}),
		...(sweep.next ? { sweep: sweep.next } : {}),
		...(Number.isFinite(since) ? { sinceCreatedMs: since } : {}),
		...(learnt ? { learntLimit: learnt } : {}),
		sweepStartedMs,
		...(readSinceMs !== undefined ? { readSinceMs } : {}),
	});
	return emit(ctx, folded.items);
}
