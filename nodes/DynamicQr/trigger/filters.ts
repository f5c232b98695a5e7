import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { eventCardId, eventQrCodeId, normaliseEvents } from '../api';
import { checkedMilestones } from '../shared/milestoneNumbers';
import { nodeParameters } from '../shared/parameters';
import type { TriggerContext } from './state';

/** The trigger's parameters, by the types the node file hands over (trigger/ never imports it). */
export function triggerSettings(ctx: TriggerContext, properties: INodeProperties[]) {
	const parameters = nodeParameters(ctx, properties);
	const dashboard = parameters.option('endpointMode') === 'dashboard';
	return {
		mode: dashboard ? ('dashboard' as const) : ('automatic' as const),
		/** Version 1's dashboard secret (version 2's is a credential). */
		signingSecret: () => parameters.string('signingSecret', { required: false }).trim(),
		filters: () => {
			// Each a list: comma-separated text or a list from an expression, entries trimmed.
			const filters = parameters.collection('filters', ['qrCodeIds', 'cardIds', 'scanMilestones']);
			const field = parameters.optionField('filters', 'scanMilestones');
			const list = (value: unknown) => (value ?? []) as string[];
			return {
				// None chosen is for activation to explain ("No event is selected").
				events: normaliseEvents(parameters.optionList('events', { required: false })),
				qrCodeIds: list(filters.qrCodeIds),
				cardIds: list(filters.cardIds),
				milestones: checkedMilestones(parameters, field, list(filters.scanMilestones)),
			};
		},
	};
}

export type TriggerSettings = ReturnType<typeof triggerSettings>;
export type DeliveryFilters = ReturnType<TriggerSettings['filters']>;

export const allows = (ids: string[], id: string | undefined) =>
	ids.length === 0 || (id !== undefined && ids.includes(id));

/** Why an event is not for this workflow, if it is not. */
export function filterOut(type: string, data: IDataObject | undefined, filters: DeliveryFilters) {
	if (!filters.events.includes(type)) return `event type "${type}" is not selected`;
	const isAboutQrCode = type.startsWith('qr_code.') || type === 'scan.created';
	if (isAboutQrCode && !allows(filters.qrCodeIds, eventQrCodeId(type, data)))
		return 'QR code not in the filter';
	if (type === 'lead.created' && !allows(filters.cardIds, eventCardId(type, data)))
		return 'card not in the filter';
	return undefined;
}
