import type { IDataObject } from 'n8n-workflow';

import { asObject, unwrap } from './records';

/** Webhook endpoints and event data as the service gives them, read into the reference's shapes. */

export interface WebhookEndpoint {
	id: string;
	url?: string;
	/** Undefined when the list does not say. */
	events?: string[];
	status?: string;
	/** Whether the service delivers to it. */
	active: boolean;
}

/**
 * The endpoints of a list. A service may list them without their events (reading
 * "webhook-list-without-events"); the reference names only the status `active`, so any other
 * (reading "endpoint-status-values": "paused", "disabled"…) means it does not deliver, and a
 * record without one is taken as active.
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
			active: status === undefined || status === 'active',
		};
	});
}

/**
 * Names a service may give the signing secret: the reference shows the record's `secret`;
 * readings "secret-named-signing-secret" and "secret-top-level" (beside `data`) name others.
 */
export const SECRET_FIELDS = ['secret', 'signing_secret', 'signingSecret', 'webhook_secret'];

/** Signing secrets begin with `whsec_` (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';

export const looksLikeSecret = (value: unknown): value is string =>
	typeof value === 'string' && value.startsWith(SECRET_PREFIX);

/**
 * Every signing-secret candidate in the answer that registered an endpoint, most likely first:
 * the record's secret fields, the answer's own, then any `whsec_` value wherever it sits.
 */
export function secretCandidates(answer: unknown): string[] {
	const holders = [unwrap(asObject(answer) ?? {}), asObject(answer) ?? {}];
	const named = holders.flatMap((holder) => SECRET_FIELDS.map((field) => holder[field]));
	const found: string[] = [];
	const visit = (value: unknown): void => {
		if (looksLikeSecret(value)) found.push(value);
		else if (value && typeof value === 'object') Object.values(value).forEach(visit);
	};
	visit(answer);
	const texts = named.filter((value): value is string => typeof value === 'string' && value !== '');
	return [...new Set([...texts, ...found])];
}

const idText = (id: unknown): string | undefined => (id === undefined ? undefined : String(id));

/**
 * The QR code an event is about: the code itself for `qr_code.*`, the scanned one for
 * `scan.created` (`data.qr_code.id`, or reading "event-data-flat": `data.qr_code_id`).
 */
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
