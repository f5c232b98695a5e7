import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { ApiClient, eventQrCodeId, isGone, recordId, scanCount } from '../api';
import { milestoneKey } from '../shared/eventKeys';
import { milestonesBetween } from '../shared/milestoneNumbers';
import { packCodes, type CodeState } from '../shared/packedCodes';
import { allows, type DeliveryFilters } from './filters';
import { openLedger, type Ledger } from './ledger';
import { IN_FLIGHT_MS } from './state';

/** "Only at Scan Milestones" (docs/triggers.md#scan-milestones). */

/** Half the service's answer deadline: room for one wait on a 429. */
const MAX_WAIT_SECONDS = IN_FLIGHT_MS / 2 / 1000;

const baselineOf = (filters: DeliveryFilters) =>
	`${filters.milestones.join(',')}|${[...filters.qrCodeIds].sort().join(',')}`;

/** The codes the filters watch, archived ones too (the list's default is not shown), and counts. */
async function watchedCodes(client: ApiClient, filters: DeliveryFilters) {
	const lists = [client.all('/qr-codes'), client.all('/qr-codes', { archived: true })];
	return (await Promise.all(lists)).flat().flatMap((code) => {
		const id = recordId(code);
		return id !== undefined && allows(filters.qrCodeIds, id)
			? [{ id, code, scans: scanCount(code) }]
			: [];
	});
}

/** At activation, unless stored for these settings: the highest milestone each code has passed. */
export async function prepareMilestones(ctx: IHookFunctions, filters: DeliveryFilters) {
	if (filters.milestones.length === 0) return;
	// A test webhook keeps no static data: its scans are shown, not claimed.
	const ledger = openLedger(ctx);
	const baseline = baselineOf(filters);
	if (ctx.getMode() === 'manual' || ledger.milestoneBaseline === baseline) return;
	const claims = new Map<string, CodeState>();
	for (const { id, scans } of await watchedCodes(new ApiClient(ctx), filters)) {
		const passed = milestonesBetween(filters.milestones, 0, scans).at(-1);
		if (passed === undefined) claims.delete(id);
		else claims.set(id, { count: passed, flag: 0 });
	}
	ledger.startMilestones(baseline, packCodes(claims));
}

const claimed = (codeId: string, reached: number[], scans: number) => ({
	kind: 'claimed' as const,
	fields: {
		milestone: reached.at(-1),
		milestones_reached: reached,
		scans,
		event_key: milestoneKey(codeId, reached.at(-1)),
	},
});

/**
 * For a scan with milestones to watch, the code's count read now (a scan carries none); claims the
 * milestones it reached that no scan claimed before (a text: why the scan starts nothing).
 */
export async function checkScanMilestone(
	ctx: IWebhookFunctions,
	ledger: Ledger,
	filters: DeliveryFilters,
	type: string,
	data: IDataObject | undefined,
) {
	if (type !== 'scan.created' || filters.milestones.length === 0) return undefined;
	const codeId = eventQrCodeId(type, data);
	if (codeId === undefined) return 'scan without a QR code id';
	let scans: number;
	try {
		const client = new ApiClient(ctx, { maxWaitSeconds: MAX_WAIT_SECONDS });
		scans = scanCount(await client.getRecord(`/qr-codes/${encodeURIComponent(codeId)}`));
	} catch (error) {
		if (isGone(error)) return 'the scanned QR code no longer exists';
		const why = `the scanned code's count could not be read: ${(error as Error).message}`;
		return { kind: 'later', why } as const;
	}
	if (ctx.getMode() === 'manual') {
		const shown = milestonesBetween(filters.milestones, 0, scans);
		return claimed(codeId, shown.length ? shown : [filters.milestones[0]], scans);
	}
	const reached = ledger.claimMilestones(baselineOf(filters), codeId, filters.milestones, scans);
	// Saved before the activation's copy was: the service sends the delivery again.
	if (!reached) return { kind: 'later', why: 'no baseline of scan counts is stored yet' } as const;
	if (!reached.length) return 'no new scan milestone';
	return claimed(codeId, reached, scans);
}

export const watchesMilestones = (filters: DeliveryFilters) =>
	filters.events.includes('scan.created') && filters.milestones.length > 0;

/** For the catch-up: the milestones codes passed that no scan delivery claimed, claimed now. */
export async function missedMilestones(
	client: ApiClient,
	ledger: Ledger,
	filters: DeliveryFilters,
) {
	if (!watchesMilestones(filters)) return [];
	return (await watchedCodes(client, filters)).flatMap(({ id, code, scans }) => {
		const reached = ledger.claimMilestones(baselineOf(filters), id, filters.milestones, scans);
		if (!reached?.length) return [];
		const { fields } = claimed(id, reached, scans);
		const qrCode = { id, name: code.name, type: code.type };
		const data = { qr_code: qrCode, short_url: code.short_url, scanned_at: code.last_scanned_at };
		return [{ id: fields.event_key, data, fields }];
	});
}
