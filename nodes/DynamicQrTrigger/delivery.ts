import type { IDataObject } from 'n8n-workflow';

/**
 * Best-effort duplicate suppression: the `webhook-id`s this n8n process has already started a
 * workflow for, per trigger node, for 24 hours (the service's retries span about 8.5 hours).
 * Lost on restart and not shared between n8n processes (queue mode, several webhook
 * processors), so a workflow must still tolerate the rare duplicate.
 */
const SEEN_TTL_MS = 24 * 60 * 60 * 1000;
const SEEN_MAX = 20000;
const seen = new Map<string, number>();

/** Records the id; true when it was already recorded (and not expired). */
export function seenBefore(scope: string, webhookId: string, nowMs: number): boolean {
	const key = `${scope}\u0000${webhookId}`;
	const expires = seen.get(key);
	if (expires !== undefined && expires > nowMs) return true;
	seen.delete(key);
	seen.set(key, nowMs + SEEN_TTL_MS);
	// Oldest first (insertion order): drop expired entries, and the oldest beyond the cap.
	for (const [oldKey, oldExpires] of seen) {
		if (seen.size <= SEEN_MAX && oldExpires > nowMs) break;
		seen.delete(oldKey);
	}
	return false;
}

/** Comma-, space- or newline-separated ids, or a list (from an expression). */
export function parseIdList(value: unknown): string[] {
	const list = Array.isArray(value) ? value.map(String) : String(value ?? '').split(/[\s,;]+/);
	return [...new Set(list.map((id) => id.trim()).filter((id) => id.length > 0))];
}

function asObject(value: unknown): IDataObject | undefined {
	return value && typeof value === 'object' && !Array.isArray(value)
		? (value as IDataObject)
		: undefined;
}

/** The QR code an event is about: the code itself for `qr_code.*`, the scanned one for scans. */
export function qrCodeIdOf(type: string, data: IDataObject | undefined): string | undefined {
	if (!data) return undefined;
	if (type.startsWith('qr_code.')) return data.id === undefined ? undefined : String(data.id);
	if (type === 'scan.created') {
		const code = asObject(data.qr_code);
		const id = code?.id ?? data.qr_code_id;
		return id === undefined ? undefined : String(id);
	}
	return undefined;
}

/** The card a lead was shared on. */
export function cardIdOf(type: string, data: IDataObject | undefined): string | undefined {
	if (!data || type !== 'lead.created') return undefined;
	const id = asObject(data.card)?.id ?? asObject(data.lead)?.card_id ?? data.card_id;
	return id === undefined ? undefined : String(id);
}

export interface DeliveryFilters {
	events: string[];
	qrCodeIds: string[];
	cardIds: string[];
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
		const id = qrCodeIdOf(type, data);
		if (id === undefined || !filters.qrCodeIds.includes(id)) return 'QR code not in the filter';
	}
	if (filters.cardIds.length > 0 && type === 'lead.created') {
		const id = cardIdOf(type, data);
		if (id === undefined || !filters.cardIds.includes(id)) return 'card not in the filter';
	}
	return undefined;
}
