import type { IDataObject, IHookFunctions, IWebhookFunctions } from 'n8n-workflow';

import { eventCardId, eventQrCodeId, normaliseEvents } from '../api';
import { checkedMilestones } from '../shared/milestoneNumbers';
import { triggerParameters } from './triggerProperties';

/**
 * Which deliveries start the workflow: the events chosen in Trigger On, and the optional QR code
 * and card filters. Deliveries filtered out are acknowledged without starting it.
 */

/** Comma-, space- or newline-separated ids, or a list (from an expression). */
export function parseIdList(value: unknown): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,;]+/);
	return [...new Set(list.map((id) => id.trim()).filter((id) => id.length > 0))];
}

export interface DeliveryFilters {
	events: string[];
	qrCodeIds: string[];
	cardIds: string[];
	/** "Only at Scan Milestones": sorted; empty when not set (scanMilestones.ts). */
	milestones: number[];
}

/**
 * Why an event is not for this workflow, or undefined when it is. The QR code filter applies
 * to the events about a QR code (qr_code.*, scan.created); the card filter to lead.created.
 * An event of a kind a filter cannot describe is not held back by that filter.
 */
export function filterOut(
	type: string,
	data: IDataObject | undefined,
	filters: DeliveryFilters,
): string | undefined {
	if (!filters.events.includes(type)) return `event type "${type}" is not selected`;
	const isAboutQrCode = type.startsWith('qr_code.') || type === 'scan.created';
	if (filters.qrCodeIds.length > 0 && isAboutQrCode) {
		const id = eventQrCodeId(type, data);
		if (id === undefined || !filters.qrCodeIds.includes(id)) return 'QR code not in the filter';
	}
	if (filters.cardIds.length > 0 && type === 'lead.created') {
		const id = eventCardId(type, data);
		if (id === undefined || !filters.cardIds.includes(id)) return 'card not in the filter';
	}
	return undefined;
}

/**
 * The events and filters as the node's parameters set them, each read by its declared type: a
 * value that does not fit (an unknown event, an object as IDs) is an error naming the field.
 */
export function readFilters(ctx: IHookFunctions | IWebhookFunctions): DeliveryFilters {
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
