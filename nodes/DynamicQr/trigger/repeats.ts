import { createHash } from 'crypto';

/**
 * Repeated deliveries (the service's retries and manual resends keep the `webhook-id`) are
 * dropped across n8n processes: the deliveries that started the workflow are kept in the
 * trigger's static data (key `deliveries`, kept by state.ts), which n8n loads from the database
 * for every webhook request and saves after it, so another webhook processor, or this one after
 * a restart, sees them. n8n 2.x saves it once the execution exists, just before it answers.
 *
 * n8n saves static data whole, without locking: when two processors handle different deliveries
 * at the same moment, the later save can drop the id the other one recorded. Each process
 * therefore also remembers the ids it recorded and writes them back with every save it makes,
 * so a dropped id returns with that processor's next delivery. Only ids whose delivery n8n
 * answered 2xx are written back: a delivery whose workflow did not start is sent again by the
 * service, and that retry must not meet its own id.
 *
 * The record is one string of fixed-width entries, oldest first: a 12-character hash of the
 * webhook-id, then the minute it expires (base 36, 6 characters). n8n parses and writes the
 * whole static data for every delivery, and a string of 2,000 entries (36 KB) costs it far less
 * than an object with 2,000 keys.
 */
/** Ids are kept 24 hours: the service's retries span about 8.5 hours. */
const KEEP_MS = 24 * 60 * 60 * 1000;
/** At most this many ids per trigger (oldest dropped), to bound what is stored and saved. */
const KEEP_MAX = 2000;

const KEY_LENGTH = 12;
const EXPIRY_LENGTH = 6;
const ENTRY_LENGTH = KEY_LENGTH + EXPIRY_LENGTH;
const MINUTE_MS = 60_000;

/** An id this process recorded: its expiry as stored, and whether n8n answered its delivery 2xx. */
interface RecordedHere {
	expiry: string;
	answered: boolean;
}

/** This process's own record, per trigger: key -> entry, in the order recorded. */
const recordedHere = new Map<string, Map<string, RecordedHere>>();

/** 72 bits of SHA-256: two of 2,000 ids share a key with a chance of about 4 in 10^16. */
const keyOf = (webhookId: string) =>
	createHash('sha256').update(webhookId).digest('base64url').slice(0, KEY_LENGTH);

/** An expiry as stored: fixed-width base 36, so that stored expiries compare as strings. */
const storedExpiry = (expiresMs: number) =>
	Math.ceil(expiresMs / MINUTE_MS)
		.toString(36)
		.padStart(EXPIRY_LENGTH, '0');

const expiryAt = (record: string, at: number) => record.slice(at + KEY_LENGTH, at + ENTRY_LENGTH);

/** The keys of a stored record's live entries. */
function liveKeysOf(record: string, now: string): Set<string> {
	const keys = new Set<string>();
	for (let at = 0; at + ENTRY_LENGTH <= record.length; at += ENTRY_LENGTH) {
		if (expiryAt(record, at) > now) keys.add(record.slice(at, at + KEY_LENGTH));
	}
	return keys;
}

/**
 * The record with entries added at the end, without the expired entries at its front and the
 * oldest beyond KEEP_MAX. (An expired entry further in, written back late by another process,
 * goes when it reaches the front; until then it counts as absent.)
 */
function withEntries(record: string, added: string, now: string): string {
	let start = 0;
	while (start + ENTRY_LENGTH <= record.length && expiryAt(record, start) <= now) {
		start += ENTRY_LENGTH;
	}
	const next = record.slice(start) + added;
	return next.slice(Math.max(0, next.length - KEEP_MAX * ENTRY_LENGTH));
}

/** Drops what expired and the oldest beyond the cap; both sit at the front of the record. */
function forgetOld(record: Map<string, RecordedHere>, now: string): void {
	for (const [key, { expiry }] of record) {
		if (expiry > now && record.size <= KEEP_MAX) break;
		record.delete(key);
	}
}

export interface RecordedDelivery {
	/** The delivery already started the workflow, in this n8n process or in another one. */
	repeat: boolean;
	/** The record to store; the same string when nothing was added. */
	record: string;
	/**
	 * For a new delivery, to be called with whether n8n answered it 2xx: only then does this
	 * process go on treating the id as a repeat and writing it back.
	 */
	answered: (ok: boolean) => void;
}

const ignoreAnswer = () => undefined;

/**
 * Whether this delivery already started the workflow, here or in another n8n process (that is,
 * in `record`, the stored copy); when not, it is recorded. Either way the answered ids this
 * process recorded before and the stored copy lacks (dropped by another processor's concurrent
 * save) are written back.
 */
export function recordDelivery(
	record: string,
	trigger: string,
	webhookId: string,
	nowMs: number,
): RecordedDelivery {
	const here = recordedHere.get(trigger) ?? new Map<string, RecordedHere>();
	recordedHere.set(trigger, here);
	const key = keyOf(webhookId);
	// Expiries are stored rounded up to the minute: live while above the current minute.
	const now = storedExpiry(nowMs);
	const saved = liveKeysOf(record, now);
	// An id still waiting for its answer counts too: the same delivery arriving twice at once
	// starts the workflow once.
	const repeat = (here.get(key)?.expiry ?? '') > now || saved.has(key);
	const entry = repeat ? undefined : { expiry: storedExpiry(nowMs + KEEP_MS), answered: false };
	if (entry) here.set(key, entry);
	forgetOld(here, now);

	let added = '';
	for (const [hereKey, { expiry, answered }] of here) {
		if (answered && !saved.has(hereKey)) added += hereKey + expiry;
	}
	if (!entry) {
		return {
			repeat,
			record: added === '' ? record : withEntries(record, added, now),
			answered: ignoreAnswer,
		};
	}
	return {
		repeat,
		record: withEntries(record, added + key + entry.expiry, now),
		answered(ok) {
			if (ok) entry.answered = true;
			else if (here.get(key) === entry) here.delete(key);
		},
	};
}
