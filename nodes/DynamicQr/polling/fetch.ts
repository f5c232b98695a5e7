import type { IDataObject, IPollFunctions } from 'n8n-workflow';

import type { ApiClient } from '../api';
import { createdAtOrBefore } from '../api';
import { codeListQuery } from '../shared/codeFilters';
import { pollingParameters } from './pollingProperties';

/**
 * What the polling trigger watches: new leads of one card, new QR codes of the workspace, or the
 * scan counts of the codes (scanEvents.ts).
 */
export type PollEvent = 'newLead' | 'newQrCode' | ScanEvent;
export type ScanEvent = 'newScans' | 'scanMilestone' | 'quietCode';

const EVENTS: PollEvent[] = ['newLead', 'newQrCode', 'newScans', 'scanMilestone', 'quietCode'];

/** At most this many new QR codes per poll (100 pages); a warning says when older ones are skipped. */
const MAX_NEW_QR_CODES = 10000;

export function pollEventOf(ctx: IPollFunctions): PollEvent {
	const event = pollingParameters(ctx).option('event');
	return EVENTS.find((known) => known === event) ?? 'newLead';
}

export const isScanEvent = (event: PollEvent): event is ScanEvent =>
	event === 'newScans' || event === 'scanMilestone' || event === 'quietCode';

/** The list filters of the scan events (as QR Code › Get Many sends them). */
export function codeFiltersOf(ctx: IPollFunctions): IDataObject {
	return codeListQuery(pollingParameters(ctx).collection('filters'));
}

/** Every code the filters select, newest first: one read of the list, its pages at once. */
export async function fetchCodeList(client: ApiClient, qs: IDataObject): Promise<IDataObject[]> {
	return await client.all('/qr-codes', qs);
}

/** The card whose leads are watched: an ID, checked before any request. */
export function cardIdOf(ctx: IPollFunctions): string {
	return pollingParameters(ctx).value('cardId', { required: true }) as string;
}

const leadsPath = (cardId: string) => `/cards/${encodeURIComponent(cardId)}/leads`;

/** Leads of a card created after `afterMs` (all of them when undefined), newest first. */
export async function fetchLeads(
	client: ApiClient,
	cardId: string,
	afterMs?: number,
): Promise<IDataObject[]> {
	if (afterMs === undefined) return await client.all(leadsPath(cardId));
	return await client.since(leadsPath(cardId), afterMs);
}

/**
 * QR codes created after `afterMs` (all when undefined), newest first: reads the list (which is
 * newest first) until a page reaches an older code.
 */
export async function fetchQrCodes(client: ApiClient, afterMs?: number): Promise<IDataObject[]> {
	const codes = await client.all('/qr-codes', {}, MAX_NEW_QR_CODES, {
		isPast: afterMs === undefined ? undefined : createdAtOrBefore(afterMs),
	});
	if (codes.length >= MAX_NEW_QR_CODES) {
		client.ctx.logger.warn(
			`Dynamic QR Polling Trigger: more than ${MAX_NEW_QR_CODES} new QR codes since the last poll; the oldest of them are not emitted`,
		);
	}
	return codes;
}

/** The newest lead of the card, or the newest QR code of the workspace (both lists are newest first). */
export async function fetchNewest(
	client: ApiClient,
	event: PollEvent,
	cardId: string,
): Promise<IDataObject | undefined> {
	const path = event === 'newLead' ? leadsPath(cardId) : '/qr-codes';
	return (await client.all(path, {}, 1))[0];
}
