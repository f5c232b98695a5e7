import type { IDataObject } from 'n8n-workflow';

import { asObject, unwrap } from './records';

/**
 * Webhook endpoints and event data as the service gives them, read into the reference's shapes:
 * an endpoint's id, URL, events, status and signing secret; what an event is about.
 */

/** An endpoint as the service lists it. */
export interface WebhookEndpoint {
	id: string;
	url?: string;
	/** The events it is subscribed to; undefined when the list does not say. */
	events?: string[];
	/** Its status as the service gives it, when it gives one. */
	status?: string;
	/** Whether the service delivers to it. */
	active: boolean;
}

/**
 * The endpoints of a list, by id. The reference shows no list record: a service may list them
 * without their events (reading "webhook-list-without-events"), and names only the status
 * `active`, so any other ("paused", "disabled", "inactive"…: reading "endpoint-status-values")
 * means it does not deliver; a record without one is taken as active.
 */
export function webhookEndpoints(records: IDataObject[]): WebhookEndpoint[] {
	return records.flatMap((record) => {
		if (typeof record.id !== 'string') return [];
		const status =
			record.status === undefined || record.status === null ? undefined : record.status;
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
 * Field names a service may give the signing secret. The reference shows only the record's
 * `secret`; readings "secret-named-signing-secret" and "secret-top-level" (beside `data`) name
 * others.
 */
export const SECRET_FIELDS = ['secret', 'signing_secret', 'signingSecret', 'webhook_secret'];

/** Signing secrets begin with `whsec_` (Standard Webhooks). */
export const SECRET_PREFIX = 'whsec_';

export const looksLikeSecret = (value: unknown): value is string =>
	typeof value === 'string' && value.startsWith(SECRET_PREFIX);

/**
 * Every signing-secret candidate in the answer that registered an endpoint, most likely first:
 * the record's secret fields, the answer's own (beside `data`), then any `whsec_` value wherever
 * it sits.
 */
export function secretCandidates(answer: unknown): string[] {
	const named: unknown[] = [];
	for (const holder of [unwrap(asObject(answer) ?? {}), asObject(answer) ?? {}]) {
		for (const field of SECRET_FIELDS) named.push(holder[field]);
	}
	const found: string[] = [];
	const visit = (value: unknown): void => {
		if (looksLikeSecret(value)) found.push(value);
		else if (value && typeof value === 'object') Object.values(value).forEach(visit);
	};
	visit(answer);
	const texts = named.filter((value): value is string => typeof value === 'string' && value !== '');
	return [...new Set([...texts, ...found])];
}

/** An id as text, when there is one. */
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

/**
 * The card a lead was shared on: `data.card.id`, or (reading "event-data-flat") `card_id` in
 * the lead or in flat data.
 */
export function eventCardId(type: string, data: IDataObject | undefined): string | undefined {
	if (!data || type !== 'lead.created') return undefined;
	return idText(asObject(data.card)?.id ?? asObject(data.lead)?.card_id ?? data.card_id);
}
