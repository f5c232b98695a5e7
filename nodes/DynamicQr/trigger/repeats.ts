import { createHash } from 'crypto';

/**
 * Repeated deliveries (the service's retries and manual resends keep the `webhook-id`) are
 * dropped across n8n processes: the deliveries that started the workflow are kept in the
 * trigger's static data (key `deliveries`, kept by state.ts), which n8n loads from the database
 * for every webhook request and saves after it, so another webhook processor, or this one after
 * a restart, sees them. n8n 2.x saves it once the execution exists, just before it answers.
 *
 * n8n saves static data whole, without locking, from the copy it loaded when the request came
 * in: when deliveries arrive at once, every request loads the same copy, and the last save keeps
 * only what its own process added (measured: 40 deliveries at once on two webhook processors
 * left 1 of 40 ids stored). Each process therefore remembers every id it knows to have started a
 * workflow (its own, once n8n started their executions, and every id it saw in a stored copy)
 * and writes the ones a copy lacks into every save it makes; the record for a save is made as
 * late as n8n allows (when it reads the answer, just before it saves), so the last save of a
 * process carries all that process knows. An id lost to another processor's save returns with
 * this process's next save. Ids whose delivery has not started a workflow are not written back:
 * the service sends such a delivery again, and that retry must not meet its own id.
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

/**
 * An id this process knows: its expiry as stored, and whether it is written back into saves
 * (an id known to have started a workflow, here or in another process).
 */
interface KnownId {
	expiry: string;
	started: boolean;
}

/**
 * What this process knows, per trigger: key -> entry, oldest first. Kept for the process, not a
 * run: it is what lets one delivery see the ids other deliveries started, and every delivery is
 * a run of its own whose static data n8n loads from the copy saved before (see state.ts).
 */
const knownHere = new Map<string, Map<string, KnownId>>();

/** 72 bits of SHA-256: two of 2,000 ids share a key with a chance of about 4 in 10^16. */
const keyOf = (webhookId: string) =>
	createHash('sha256').update(webhookId).digest('base64url').slice(0, KEY_LENGTH);

/** An expiry as stored: fixed-width base 36, so that stored expiries compare as strings. */
const storedExpiry = (expiresMs: number) =>
	Math.ceil(expiresMs / MINUTE_MS)
		.toString(36)
		.padStart(EXPIRY_LENGTH, '0');

const expiryAt = (record: string, at: number) => record.slice(at + KEY_LENGTH, at + ENTRY_LENGTH);

/** A stored record's live entries: key -> expiry. */
function liveEntriesOf(record: string, now: string): Map<string, string> {
	const entries = new Map<string, string>();
	for (let at = 0; at + ENTRY_LENGTH <= record.length; at += ENTRY_LENGTH) {
		const expiry = expiryAt(record, at);
		if (expiry > now) entries.set(record.slice(at, at + KEY_LENGTH), expiry);
	}
	return entries;
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
function forgetOld(record: Map<string, KnownId>, now: string): void {
	for (const [key, { expiry }] of record) {
		if (expiry > now && record.size <= KEEP_MAX) break;
		record.delete(key);
	}
}

export interface RecordedDelivery {
	/** The delivery already started the workflow, in this n8n process or in another one. */
	repeat: boolean;
	/**
	 * The record to store: the stored copy with this delivery (when new) and the started ids this
	 * process knows and the copy lacks; the stored copy itself when it lacks nothing. Made when
	 * called, so a later call carries what the process has learned since.
	 */
	record: () => string;
	/** n8n has started the workflow for this delivery: the id is written back from now on. */
	started: () => void;
	/** Whether n8n answered this delivery 2xx: one neither started nor answered is forgotten. */
	answered: (ok: boolean) => void;
}

const ignore = () => undefined;

/**
 * What this process knows of a trigger, having read a stored copy: the ids of the copy are
 * remembered as started, so that this process writes them back if another save drops them.
 */
function learnFrom(record: string, trigger: string, nowMs: number) {
	const known = knownHere.get(trigger) ?? new Map<string, KnownId>();
	knownHere.set(trigger, known);
	// Expiries are stored rounded up to the minute: live while above the current minute.
	const now = storedExpiry(nowMs);
	const saved = liveEntriesOf(record, now);
	for (const [savedKey, expiry] of saved) {
		const entry = known.get(savedKey);
		if (entry) entry.started = true;
		else known.set(savedKey, { expiry, started: true });
	}
	forgetOld(known, now);
	/** The stored copy with the started ids it lacks (and `also`, when given) added. */
	const withKnown = (also?: KnownId) => {
		let added = '';
		for (const [knownKey, each] of known) {
			const include = each.started || each === also;
			if (include && each.expiry > now && !saved.has(knownKey)) added += knownKey + each.expiry;
		}
		return added === '' ? record : withEntries(record, added, now);
	};
	return { known, now, withKnown };
}

/**
 * Whether this delivery already started the workflow, here or in another n8n process (that is,
 * in `record`, the stored copy); when not, it is recorded.
 */
export function recordDelivery(
	record: string,
	trigger: string,
	webhookId: string,
	nowMs: number,
): RecordedDelivery {
	const { known, now, withKnown } = learnFrom(record, trigger, nowMs);
	const key = keyOf(webhookId);
	// An id still waiting for its workflow to start counts too: the same delivery arriving twice
	// at once starts the workflow once.
	const repeat = (known.get(key)?.expiry ?? '') > now;
	const entry = repeat ? undefined : { expiry: storedExpiry(nowMs + KEEP_MS), started: false };
	if (entry) known.set(key, entry);
	forgetOld(known, now);

	const recordNow = () => withKnown(entry);
	if (!entry) return { repeat, record: recordNow, started: ignore, answered: ignore };
	return {
		repeat,
		record: recordNow,
		started() {
			entry.started = true;
		},
		answered(ok) {
			if (ok) entry.started = true;
			else if (!entry.started && known.get(key) === entry) known.delete(key);
		},
	};
}

/** The stored copy with the started ids this process knows and it lacks, for a save of its own. */
export function repairRecord(record: string, trigger: string, nowMs: number): string {
	return learnFrom(record, trigger, nowMs).withKnown();
}
