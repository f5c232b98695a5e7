import type { IDataObject } from 'n8n-workflow';

import { asObject, unwrap } from './records';

export interface WebhookEndpoint {
	id: string;
	url?: string;
	events?: string[];
	status?: string;
	active: boolean; // whether the service delivers to it
}

/**
 * The endpoints of a list, maybe without their events (reading "webhook-list-without-events").
 * The reference names only `active`: any other status (reading "endpoint-status-values") or a
 * `paused: true` flag (reading "endpoint-paused-flag") means it does not deliver; none means active.
 */
export function webhookEndpoints(records: IDataObject[]): WebhookEndpoint[] {
	return records.flatMap((record) => {
		if (typeof record.id !== 'string') return [];
		const status = record.status ?? undefined;
		return {
			id: record.id,
			url: typeof record.url === 'string' ? record.url : undefined,
			events: Array.isArray(record.events) ? record.events.map(String) : undefined,
			status: status === undefined ? undefined : String(status),
			active: (status === undefined || status === 'active') && record.paused !== true,
		};
	});
}

/** The reference's `secret`, then readings "secret-named-signing-secret", "secret-top-level". */
export const SECRET_FIELDS = ['secret', 'signing_secret', 'signingSecret', 'webhook_secret'];

/** Signing secrets begin with `whsec_` (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';
export const looksLikeSecret = (value: unknown): value is string =>
	typeof value === 'string' && value.startsWith(SECRET_PREFIX);

/** Signing secrets in a create answer, likeliest first: named fields, then any `whsec_` value. */
export function secretCandidates(answer: unknown): string[] {
	const holders = [unwrap(asObject(answer) ?? {}), asObject(answer) ?? {}];
	const named = holders.flatMap((holder) => SECRET_FIELDS.map((field) => holder[field]));
	const everyValue = (value: unknown): unknown[] =>
		typeof value === 'object' && value ? Object.values(value).flatMap(everyValue) : [value];
	const texts = named.filter((value): value is string => typeof value === 'string' && value !== '');
	return [...new Set([...texts, ...everyValue(answer).filter(looksLikeSecret)])];
}

const idText = (id: unknown): string | undefined => (id === undefined ? undefined : String(id));

/** The QR code an event is about (for a scan, reading "event-data-flat": `data.qr_code_id`). */
export function eventQrCodeId(type: string, data: IDataObject | undefined): string | undefined {
	if (!data) return undefined;
	if (type.startsWith('qr_code.')) return idText(data.id);
	if (type === 'scan.created') return idText(asObject(data.qr_code)?.id ?? data.qr_code_id);
	return undefined;
}

/** The card a lead was shared on: `data.card.id`, or (reading "event-data-flat") a `card_id`. */
export function eventCardId(type: string, data: IDataObject | undefined): string | undefined {
	if (!data || type !== 'lead.created') return undefined;
	return idText(asObject(data.card)?.id ?? asObject(data.lead)?.card_id ?? data.card_id);
}

/**
 * The record a created-event brings, as `<type>:<id>`: a lead (its id in `data.lead`, or with
 * reading "event-data-flat" `data` is the lead) or a new code. The catch-up keys the same records
 * so that a lead it emitted never starts the workflow again when the service's retry brings it.
 */
export function createdRecordKey(type: string, data: IDataObject | undefined): string | undefined {
	if (!data) return undefined;
	const lead = type === 'lead.created' ? (asObject(data.lead)?.id ?? data.id) : undefined;
	const id = idText(type === 'qr_code.created' ? data.id : lead);
	return id === undefined ? undefined : `${type}:${id}`;
}
