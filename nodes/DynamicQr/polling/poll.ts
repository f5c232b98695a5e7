import type { INodeExecutionData, IPollFunctions } from 'n8n-workflow';

import { ApiClient, createdAtOrBefore } from '../api';
import { advance, cutoffMs } from './cursor';
import { isScanEvent, pollingParameters } from './pollingProperties';
import { createdEvents, emit, loadCursor, saveCursor } from './pollState';
import { leadsPath, pollCardLeads } from './cardLeads';
import { pollEndpointHealth } from './endpointHealth';
import { pollScanEvent } from './scanEvents';

const MAX_NEW_QR_CODES = 10000; // a poll's most (100 pages); a warning says when older are skipped

/**
 * Within the time n8n gives the poll (getPollBudgetMs, n8n-workflow 2.39+), or it fails before the
 * cursor is written (api/request.ts): lists come newest first, so a partial result would skip some.
 */
export async function poll(ctx: IPollFunctions): Promise<INodeExecutionData[][] | null> {
	const parameters = pollingParameters(ctx);
	const event = parameters.option('event');
	const client = new ApiClient(ctx, { budgetMs: ctx.getPollBudgetMs?.() });
	if (isScanEvent(event)) return await pollScanEvent(ctx, client, event);
	if (event === 'endpointStopped') return await pollEndpointHealth(ctx, client);
	const isLead = event === 'newLead';
	const created = isLead ? 'lead.created' : 'qr_code.created';
	if (isLead && parameters.option('cards') !== 'one') return await pollCardLeads(ctx, client);
	const cardId = isLead ? parameters.recordId('cardId') : '';
	const path = isLead ? leadsPath(cardId) : '/qr-codes';
	const newest = async () => await client.all(path, {}, 1);
	const fetch = async (afterMs?: number) => {
		if (isLead) return await client.since(path, afterMs);
		const isPast = afterMs === undefined ? undefined : createdAtOrBefore(afterMs);
		const codes = await client.all(path, {}, MAX_NEW_QR_CODES, { isPast });
		if (codes.length >= MAX_NEW_QR_CODES)
			ctx.logger.warn(
				`Dynamic QR Polling Trigger: more than ${MAX_NEW_QR_CODES} new QR codes since the last poll; the oldest of them are not emitted`,
			);
		return codes;
	};

	if (ctx.getMode() === 'manual') {
		// "Fetch Test Event": the newest existing record (n8n's convention); the cursor is left alone.
		const [message, todo] = isLead
			? ['This card has no leads yet', 'Share a contact on the card page']
			: ['The workspace has no QR codes yet', 'Create a QR code'];
		const sample = createdEvents(created, await newest());
		return emit(ctx, sample, [message, `${todo}, then fetch a test event again.`]);
	}

	const key = isLead ? `newLead:${cardId}` : 'newQrCode';
	const saved = loadCursor(ctx, key);
	const cursor = saved ?? { key, recent: [] };
	// The first poll (also after a change of settings) records what exists as seen, emitting nothing.
	const first = saved ? [] : await newest();
	if (first.length) advance(cursor, first, Date.now());
	const records =
		saved || first.length ? advance(cursor, await fetch(cutoffMs(cursor)), Date.now()) : [];
	saveCursor(ctx, cursor);
	return emit(ctx, saved ? createdEvents(created, records) : []);
}
