import type { IDataObject, INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from '../api';
import { pollingParameters } from './pollingProperties';
import type { ScanEvent } from './fetch';
import { codeFiltersOf, fetchCodeList } from './fetch';
import { milestoneRule, milestonesOf } from './milestones';
import { addBreakdowns, newScansRule } from './newScans';
import { quietDaysOf, quietRule } from './quiet';
import type { CodeState } from '../shared/packedCodes';
import { packCodes, unpackCodes } from '../shared/packedCodes';
import type { ScanCursor } from './pollState';
import { loadScanCursor, saveScanCursor } from './pollState';
import type { CodeView, ScanRule } from './scanRule';
import { codeView } from './scanRule';

/** The event's rule, its settings read (and checked) before any request. */
function ruleOf(ctx: IPollFunctions, event: ScanEvent): ScanRule {
	if (event === 'scanMilestone') return milestoneRule(milestonesOf(ctx));
	if (event === 'quietCode') return quietRule(quietDaysOf(ctx));
	return newScansRule;
}

/**
 * Folds one poll's list of codes into the cursor's codes: codes the cursor knows are compared
 * with their state; unknown codes created after `newSinceMs` (since the last poll) are compared
 * with nothing (their scans are new); other unknown codes (the first poll, codes that came into
 * the filters) are recorded as they are. Codes not in the list (deleted, filtered out) are
 * dropped. The items come oldest code first.
 */
export function foldCodes(
	rule: ScanRule,
	known: Map<string, CodeState> | undefined,
	newSinceMs: number | undefined,
	codes: CodeView[],
	nowMs: number,
): { codes: Map<string, CodeState>; items: IDataObject[] } {
	const next = new Map<string, CodeState>();
	const items: IDataObject[] = [];
	for (const code of [...codes].reverse()) {
		if (next.has(code.id)) continue; // a code listed twice (the list moved between pages)
		const before = known?.get(code.id);
		const isNew =
			known !== undefined &&
			newSinceMs !== undefined &&
			Number.isFinite(code.createdMs) &&
			code.createdMs > newSinceMs;
		if (!before && !isNew) {
			next.set(code.id, rule.baseline(code, nowMs));
			continue;
		}
		const result = rule.next(code, before ?? { count: 0, flag: 0 }, nowMs);
		next.set(code.id, result.state);
		items.push(...result.items);
	}
	return { codes: next, items };
}

/**
 * One poll of New Scans, Scan Milestone or Quiet Code: one read of the list of codes (the
 * filters applied), compared with the last poll's counts. The first poll (or the first after a
 * change of configuration) records and emits nothing. Manual mode shows a sample and leaves
 * the cursor alone.
 */
export async function pollScanEvent(
	ctx: IPollFunctions,
	client: ApiClient,
	event: ScanEvent,
): Promise<INodeExecutionData[][] | null> {
	const rule = ruleOf(ctx, event);
	const qs = codeFiltersOf(ctx);
	const includeBreakdown =
		event === 'newScans' && pollingParameters(ctx).boolean('includeBreakdown');
	const nowMs = Date.now();
	const records = await fetchCodeList(client, qs);
	const codes = records.map(codeView).filter((code): code is CodeView => code !== undefined);

	if (ctx.getMode() === 'manual') {
		const sample = rule.sample(codes, nowMs);
		if (!sample) {
			throw new NodeOperationError(
				ctx.getNode(),
				codes.length ? 'No QR code has been scanned yet' : 'No QR code matches the filters',
				{ description: 'Create or scan a QR code, then fetch a test event again.' },
			);
		}
		return [ctx.helpers.returnJsonArray([sample])];
	}

	const key = [event, rule.settings, JSON.stringify(qs)].join('|');
	const cursor: ScanCursor | undefined = loadScanCursor(ctx, key);
	const known = cursor ? unpackCodes(cursor.codes) : undefined;
	const newSinceMs = cursor ? (cursor.newestCreatedMs ?? cursor.polledMs) : undefined;
	const folded = foldCodes(rule, known, newSinceMs, codes, nowMs);

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
