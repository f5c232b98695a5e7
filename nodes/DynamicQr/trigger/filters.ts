import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { eventCardId, eventQrCodeId, normaliseEvents } from '../api';
import { checkedMilestones } from '../shared/milestoneNumbers';
import { triggerParameters } from './triggerProperties';

/** Comma-, space- or newline-separated ids, or a list (from an expression). */
function parseIdList(value: unknown): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,;]+/);
	return [...new Set(list.map((id) => id.trim()).filter((id) => id.length > 0))];
}

export type DeliveryFilters = ReturnType<typeof readFilters>;

const allows = (ids: string[], id: string | undefined) =>
	ids.length === 0 || (id !== undefined && ids.includes(id));

/**
 * Why an event is not for this workflow, if it is not. The QR code filter applies to the events
 * about a QR code (qr_code.*, scan.created); the card filter to lead.created.
 */
export function filterOut(
	type: string,
	data: IDataObject | undefined,
	filters: DeliveryFilters,
): string | undefined {
	if (!filters.events.includes(type)) return `event type "${type}" is not selected`;
	const isAboutQrCode = type.startsWith('qr_code.') || type === 'scan.created';
	if (isAboutQrCode && !allows(filters.qrCodeIds, eventQrCodeId(type, data))) {
		return 'QR code not in the filter';
	}
	if (type === 'lead.created' && !allows(filters.cardIds, eventCardId(type, data))) {
		return 'card not in the filter';
	}
	return undefined;
}

/** The events and filters, each read by its declared type (a value that does not fit fails). */
export function readFilters(ctx: IHookFunctions | IWebhookFunctions) {
	const parameters = triggerParameters(ctx);
	// None chosen is for activation to explain ("No event is selected").
	const events = parameters.optionList('events', { required: false });
	const filters = parameters.collection('filters', ['qrCodeIds', 'cardIds', 'scanMilestones']);
	const field = parameters.optionField('filters', 'scanMilestones');
	return {
		events: normaliseEvents(events),
		qrCodeIds: parseIdList(filters.qrCodeIds),
		cardIds: parseIdList(filters.cardIds),
		milestones: checkedMilestones(parameters, field, (filters.scanMilestones as string[]) ?? []),
	};
}
