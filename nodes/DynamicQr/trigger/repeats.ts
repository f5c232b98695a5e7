import { createHash } from 'crypto';

/**
 * Repeated deliveries (same `webhook-id`) are dropped across n8n processes (docs/scaling.md). n8n
 * saves static data whole, from the copy each request loaded, so each process writes every id it
 * knows started a workflow into every save; one not started is not, so the retry can start it.
 *
 * The record (`deliveries`) is one string of fixed-width entries, oldest first: a 12-character hash
 * of the webhook-id, then the minute it expires (base 36, 6 characters); cheaper than an object.
 */

/** Ids are kept 24 hours: the service's retries span about 8.5 hours. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** At most this many ids per trigger (oldest dropped), to bound what is stored and saved. */
const KEEP_MAX = 2000;
const KEY_LENGTH = 12;
const ENTRY_LENGTH = KEY_LENGTH + 6;

/** Whether the id is written back into saves. */
type KnownId = { expiry: string; started: boolean };

/** Per trigger, key -> id, oldest first. Kept for the process, not a run: each delivery is one. */
const knownHere = new Map<string, Map<string, KnownId>>();

/** 72 bits of SHA-256: two of 2,000 ids share a key with a chance of about 4 in 10^16. */
const keyOf = (webhookId: string) =>
	createHash('sha256').update(webhookId).digest('base64url').slice(0, KEY_LENGTH);

/** Fixed-width base 36 minutes, so that stored expiries compare as strings. */
const storedExpiry = (expiresMs: number) =>
	Math.ceil(expiresMs / 60_000)
		.toString(36)
		.padStart(ENTRY_LENGTH - KEY_LENGTH, '0');

const expiryAt = (record: string, at: number) => record.slice(at + KEY_LENGTH, at + ENTRY_LENGTH);

/** Drops what expired and the oldest beyond the cap; both sit at the front. */
function forgetOld(known: Map<string, KnownId>, now: string): void {
	for (const [key, { expiry }] of known) {
		if (expiry > now && known.size <= KEEP_MAX) break;
		known.delete(key);
	}
}

/** What this process knows of a trigger, having read a stored copy, whose ids count as started. */
function learnFrom(record: string, trigger: string, nowMs: number) {
	const known = knownHere.get(trigger) ?? new Map<string, KnownId>();
	knownHere.set(trigger, known);
	// Expiries are stored rounded up to the minute: live while above the current minute.
	const now = storedExpiry(nowMs);
	const saved = new Map<string, string>();
	for (let at = 0; at + ENTRY_LENGTH <= record.length; at += ENTRY_LENGTH) {
		const expiry = expiryAt(record, at);
		if (expiry > now) saved.set(record.slice(at, at + KEY_LENGTH), expiry);
	}
	for (const [key, expiry] of saved) {
		const entry = known.get(key);
		if (entry) entry.started = true;
		else known.set(key, { expiry, started: true });
	}
	forgetOld(known, now);
	/** The stored copy plus the started ids it lacks (and `also`), expired ones cut at its front. */
	const withKnown = (also?: Set<KnownId>) => {
		let added = '';
		for (const [key, each] of known) {
			const include = each.started || also?.has(each);
			if (include && each.expiry > now && !saved.has(key)) added += key + each.expiry;
		}
		if (added === '') return record;
		let start = 0;
		while (start + ENTRY_LENGTH <= record.length && expiryAt(record, start) <= now) {
			start += ENTRY_LENGTH;
		}
		const next = record.slice(start) + added;
		return next.slice(Math.max(0, next.length - KEEP_MAX * ENTRY_LENGTH));
	};
	return { known, now, withKnown };
}

/**
 * Which of `ids` (a delivery's webhook-id and the record it is about; a catch-up's records) started
 * the workflow before, here or in `record`: `fresh` are the others, now recorded. `started()`
 * writes them back into saves; `answered(false)` forgets them unless started.
 */
export function recordDelivery(record: string, trigger: string, ids: string[], nowMs: number) {
	const { known, now, withKnown } = learnFrom(record, trigger, nowMs);
	const entries = new Map<string, KnownId>();
	const fresh: string[] = [];
	for (const id of new Set(ids)) {
		const key = keyOf(id);
		// An id not started yet counts too: the same delivery arriving twice at once starts once.
		if ((known.get(key)?.expiry ?? '') > now) continue;
		const entry = { expiry: storedExpiry(nowMs + KEEP_MS), started: false };
		known.set(key, entry);
		entries.set(key, entry);
		fresh.push(id);
	}
	forgetOld(known, now);
	const settle = (ok: boolean) => {
		for (const [key, entry] of entries) {
			if (ok) entry.started = true;
			else if (!entry.started && known.get(key) === entry) known.delete(key);
		}
	};
	const ours = new Set(entries.values());
	return {
		repeat: fresh.length < new Set(ids).size,
		fresh,
		record: () => withKnown(ours),
		started: () => settle(true),
		answered: settle,
	};
}

/** For a save of this process's own (the resync). */
export const repairRecord = (record: string, trigger: string, nowMs: number) =>
	learnFrom(record, trigger, nowMs).withKnown();
