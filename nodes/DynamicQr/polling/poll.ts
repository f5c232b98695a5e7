import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { ApiClient } from '../api';
import { advance, cutoffMs, newCursor } from './cursor';
import { loadCursor, saveCursor } from './pollState';
import { cardIdOf, fetchLeads, fetchNewest, fetchQrCodes, isScanEvent, pollEventOf } from './fetch';
import { pollScanEvent } from './scanEvents';

/** Manual "Fetch Test Event": the newest existing record (n8n's convention); the cursor is left alone. */
async function testEvent(
	client: ApiClient,
	event: 'newLead' | 'newQrCode',
	cardId: string,
): Promise<INodeExecutionData[][]> {
	const ctx = client.ctx as IPollFunctions;
	const newest = await fetchNewest(client, event, cardId);
	if (!newest) {
		throw new NodeOperationError(
			ctx.getNode(),
			event === 'newLead' ? 'This card has no leads yet' : 'The workspace has no QR codes yet',
			{
				description:
					event === 'newLead'
						? 'Share a contact on the card page, then fetch a test event again.'
						: 'Create a QR code, then fetch a test event again.',
			},
		);
	}
	return [ctx.helpers.returnJsonArray([newest])];
}

/**
 * How long this poll may take, where n8n says (getPollBudgetMs: n8n-workflow 2.39 and later; n8n
 * 1.x has none). The poll keeps within it: a wait the API asks for that does not fit, or a request
 * the time is up for, fails the poll at once with a clear error (api/request.ts). That happens
 * before the cursor is written, so the next poll starts from the same place: nothing lost, nothing
 * emitted twice. A partial result is never emitted: lists come newest first, so stopping early
 * would skip older records.
 */
function pollBudgetMs(ctx: IPollFunctions): number | undefined {
	return typeof ctx.getPollBudgetMs === 'function' ? ctx.getPollBudgetMs() : undefined;
}

/**
 * One poll: the records created since the last one, oldest first, each emitted once; or, for
 * the scan events, the codes whose scans changed (scanEvents.ts). The cursor is written before
 * poll() returns: with n8n's durable poll cursors (2.x) a write after that is lost.
 */
export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const event = pollEventOf(ctx);
	const client = new ApiClient(ctx, { budgetMs: pollBudgetMs(ctx) });
	if (isScanEvent(event)) return await pollScanEvent(ctx, client, event);
	const cardId = event === 'newLead' ? cardIdOf(ctx) : '';
	const fetch = async (afterMs?: number) =>
		event === 'newLead'
			? await fetchLeads(client, cardId, afterMs)
			: await fetchQrCodes(client, afterMs);

	if (ctx.getMode() === 'manual') return await testEvent(client, event, cardId);

	const key = event === 'newLead' ? `newLead:${cardId}` : 'newQrCode';
	const cursor = loadCursor(ctx, key);
	if (!cursor) {
		// First poll after activation (or after the configuration changed): record what exists as
		// seen, emit nothing.
		const fresh = newCursor(key);
		const newest = await fetchNewest(client, event, cardId);
		if (newest) {
			advance(fresh, [newest], Date.now());
			advance(fresh, await fetch(cutoffMs(fresh)), Date.now());
		}
		saveCursor(ctx, fresh);
		return null;
	}

	const records = advance(cursor, await fetch(cutoffMs(cursor)), Date.now());
	saveCursor(ctx, cursor);
	return records.length === 0 ? null : [ctx.helpers.returnJsonArray(records)];
}
