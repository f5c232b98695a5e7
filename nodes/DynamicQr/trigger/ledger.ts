import { createHash } from 'crypto';

import { milestonesBetween } from '../shared/milestoneNumbers';
import { packCodes, unpackCodes } from '../shared/packedCodes';
import { storedOf, type TriggerContext } from './state';

/**
 * What the trigger started or claimed (docs/triggers.md, "The ledger"). n8n saves static data whole
 * from each request's copy, so every save carries all this process knows was started.
 */

const MINUTE_MS = 60_000;
/** Keys written within this of the newest are kept (retries span 8.6 h), and those a catch-up reads, */
const HORIZON_MINUTES = 24 * 60;
/** but at most this many (oldest dropped): over 9 hours at 30 deliveries a minute, 295 KB stored. */
export const CAPACITY = 16_384;
/** n8n's clock and the service's may differ by this much: a catch-up reads from so much earlier. */
const CLOCK_MARGIN_MS = 5 * MINUTE_MS;
const KEY_LENGTH = 12;
const ENTRY_LENGTH = KEY_LENGTH + 6;

/** 72 bits of SHA-256: two of 16,384 keys share a hash with a chance of about 3 in 10^14. */
const hashOf = (key: string) =>
	createHash('sha256').update(key).digest('base64url').slice(0, KEY_LENGTH);
const minuteIn = (text: string, at: number) =>
	parseInt(text.slice(at + KEY_LENGTH, at + ENTRY_LENGTH), 36);

/** One stored text and what this process knows beyond it. */
class Section {
	/** Per key, the highest value started (here or in a stored copy), oldest first. */
	readonly started = new Map<string, number>();
	/** Claims not settled: they count here, and no save stores them. */
	private readonly pending = new Set<{ key: string; value: number }>();
	/** The stored text last learnt, and the keys started beyond it (spares a save a re-parse). */
	private learnt?: string;
	private ahead = new Set<string>();
	newest = 0;
	/** Values from here on are kept whatever the horizon: a catch-up still reads them. */
	keepFrom = Infinity;

	constructor(
		private readonly parse: (text: string) => Map<string, number>,
		private readonly extend: (text: string, added: Array<[string, number]>, from: number) => string,
		/** Values this far below the newest are forgotten (claims: none). */
		private readonly horizon = Infinity,
	) {}

	/** Values above this are kept: within the horizon of the newest, or read by a catch-up. */
	liveFrom = () => Math.min(this.newest - this.horizon, this.keepFrom);

	highest(key: string): number {
		let value = this.started.get(key) ?? 0;
		for (const claim of this.pending) if (claim.key === key) value = Math.max(value, claim.value);
		return value;
	}

	private start(key: string, value: number): boolean {
		if (value <= (this.started.get(key) ?? 0)) return false;
		this.started.set(key, value);
		this.newest = Math.max(this.newest, value);
		return true;
	}

	/** A stored copy's values count as started; read again only when it changed. */
	learn(text: string): void {
		if (text === this.learnt) return;
		this.learnt = text;
		const stored = this.parse(text);
		for (const [key, value] of stored) this.start(key, value);
		this.ahead = new Set();
		for (const [key, value] of this.started)
			if (value > (stored.get(key) ?? 0)) this.ahead.add(key);
	}

	/** Claims `value` for `key`; the answer settles it: started, or forgotten. */
	claim(key: string, value: number) {
		const claim = { key, value };
		this.pending.add(claim);
		return (started: boolean) => {
			if (this.pending.delete(claim) && started && this.start(key, value)) this.ahead.add(key);
		};
	}

	/** Drops keys from the oldest while they are not kept or more than `capacity`; the newest stay. */
	forget(capacity: number): void {
		for (const [key, value] of this.started) {
			if (value > this.liveFrom() && this.started.size <= capacity) break;
			this.started.delete(key);
		}
	}

	/** `text` (a request's stored copy) with every started value it lacks. */
	written(text: string): string {
		const current = text === this.learnt;
		const stored = current ? new Map<string, number>() : this.parse(text);
		const from = this.liveFrom();
		const added: Array<[string, number]> = [];
		for (const key of current ? this.ahead : this.started.keys()) {
			const value = this.started.get(key) ?? 0;
			if (value > Math.max(stored.get(key) ?? 0, from)) added.push([key, value]);
		}
		if (!added.length) return text;
		const next = this.extend(text, added, from);
		if (current) [this.learnt, this.ahead] = [next, new Set()];
		return next;
	}
}

const newDeliveries = () =>
	new Section(
		(text) => {
			const entries = new Map<string, number>();
			for (let at = 0; at + ENTRY_LENGTH <= text.length; at += ENTRY_LENGTH) {
				const minute = minuteIn(text, at);
				if (Number.isFinite(minute)) entries.set(text.slice(at, at + KEY_LENGTH), minute);
			}
			return entries;
		},
		(text, added, from) => {
			let start = 0;
			while (start + ENTRY_LENGTH <= text.length && !(minuteIn(text, start) > from))
				start += ENTRY_LENGTH;
			const entries = added.map(([key, minute]) => key + minute.toString(36).padStart(6, '0'));
			return (text.slice(start) + entries.join('')).slice(-CAPACITY * ENTRY_LENGTH);
		},
		HORIZON_MINUTES,
	);

const newClaims = () =>
	new Section(
		(text) => new Map([...unpackCodes(text)].map(([id, { count }]) => [id, count])),
		(text, added) => {
			const codes = unpackCodes(text);
			for (const [id, count] of added) codes.set(id, { count, flag: 0 });
			return packCodes(codes);
		},
	);

type Memory = { deliveries: Section; claims: Section; baseline?: string; ticket?: number };
/** Per trigger, what this process knows. Kept for the process (docs/n8n-behaviours.md, 7). */
const memories = new Map<string, Memory>();

export function triggerKey(ctx: TriggerContext): string {
	const node = ctx.getNode();
	return `${ctx.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
}

const textOf = (value: unknown) => (typeof value === 'string' ? value : '');
/** The minute a key written at `ms` is stored with (its expiry for 0.1.0), and back, at the earliest. */
const minuteOf = (ms: number) => Math.ceil(ms / MINUTE_MS) + HORIZON_MINUTES;
const writtenAt = (minute: number) => (minute - HORIZON_MINUTES - 1) * MINUTE_MS;

/** The ledger for one request: what it claims is settled and saved once, at its end. */
export function openLedger(ctx: TriggerContext, nowMs = Date.now()) {
	const state = storedOf(ctx);
	const trigger = triggerKey(ctx);
	const memory = memories.get(trigger) ?? { deliveries: newDeliveries(), claims: newClaims() };
	memories.set(trigger, memory);
	// The highest catch-up ticket drawn here or stored: written back as started keys are.
	const ticket = (drawn = 0) => (memory.ticket = Math.max(memory.ticket ?? 0, drawn));
	ticket(state.catchUpTicket);
	const { deliveries } = memory;
	const loaded = textOf(state.deliveries);
	deliveries.learn(loaded);
	// What a catch-up reads (from a margin before `missed`) was delivered a margin before that.
	const keepFrom = (missed?: number) =>
		(deliveries.keepFrom = missed ? minuteOf(missed - 2 * CLOCK_MARGIN_MS) - 1 : Infinity);
	keepFrom(state.missedSince);
	deliveries.forget(CAPACITY);
	const milestones = state.scanMilestones;
	const baseline = typeof milestones?.baseline === 'string' ? milestones.baseline : undefined;
	const loadedClaims = textOf(milestones?.claims);
	if (baseline !== memory.baseline) Object.assign(memory, { baseline, claims: newClaims() });
	if (baseline !== undefined) memory.claims.learn(loadedClaims);
	const minute = minuteOf(nowMs);
	const settles: Array<(started: boolean) => void> = [];

	const ledger = {
		/** When a key was last started, or the endpoint registered if later. */
		seenAt(): number | undefined {
			const newest = deliveries.newest ? writtenAt(deliveries.newest) : 0;
			return Math.max(newest, state.seenAt ?? 0) || undefined;
		},
		missedSince: () => state.missedSince,
		/** What came after the last key started was missed: kept until a catch-up reads it. */
		markMissed(drawn?: number): void {
			state.missedSince ??= ledger.seenAt();
			ticket(drawn);
			keepFrom(state.missedSince);
		},
		/** Whether the catch-up holding `held` runs: one sent at activation, or the highest drawn. */
		runsCatchUp: (held: unknown) => held === undefined || Number(held) >= ticket(),
		/** The catch-up read what was missed (saved only with its run, or with its "nothing"). */
		caughtUp(): void {
			if (state.missedSince !== undefined) delete state.missedSince;
		},
		/** The endpoint was registered now: what comes from here on is delivered to it. */
		registered: () => void (state.seenAt = nowMs),
		/** Where a catch-up of what came after `sinceMs` reads from (docs/triggers.md, "The ledger"). */
		readsFrom(sinceMs: number): number {
			const oldest = deliveries.started.values().next().value ?? 0;
			const full = deliveries.started.size >= CAPACITY;
			const answers = writtenAt(full ? oldest : deliveries.liveFrom()) + CLOCK_MARGIN_MS;
			const registered = state.seenAt ?? -Infinity;
			const endpoint = sinceMs >= registered ? registered : -Infinity;
			return Math.max(sinceMs - CLOCK_MARGIN_MS, answers, endpoint);
		},
		/** The scan counts milestones are claimed from, as activation stored them. */
		milestoneBaseline: baseline,
		/** Activation: a new baseline with the milestones each code had passed, as claims. */
		startMilestones(next: string, claims: string): void {
			state.scanMilestones = { baseline: next, claims };
		},
		/** Whether any of `keys` was started, or is claimed here and not settled yet. */
		has(keys: Array<string | undefined>): boolean {
			const from = Math.max(0, deliveries.liveFrom());
			return keys.some((key) => key !== undefined && deliveries.highest(hashOf(key)) > from);
		},
		claim(key: string): void {
			settles.push(deliveries.claim(hashOf(key), minute));
			deliveries.forget(CAPACITY);
		},
		/** The milestones `scans` reached that no one claimed, lowest first; undefined without a baseline. */
		claimMilestones(codeBaseline: string, code: string, steps: number[], scans: number) {
			if (baseline !== codeBaseline) return undefined;
			const reached = milestonesBetween(steps, memory.claims.highest(code), scans);
			if (reached.length) settles.push(memory.claims.claim(code, reached[reached.length - 1]));
			return reached;
		},
		settle(started: boolean): void {
			for (const settle of settles.splice(0)) settle(started);
		},
		/** Stores what the process knows beyond the copy loaded; true when anything was added. */
		save(): boolean {
			const next = deliveries.written(loaded);
			if (next !== loaded) state.deliveries = next;
			const claims = baseline === undefined ? loadedClaims : memory.claims.written(loadedClaims);
			if (claims !== loadedClaims) state.scanMilestones = { baseline: baseline ?? '', claims };
			const ticketAdded = ticket() > (state.catchUpTicket ?? 0);
			if (ticketAdded) state.catchUpTicket = ticket();
			return next !== loaded || claims !== loadedClaims || ticketAdded;
		},
	};
	return ledger;
}

export type Ledger = ReturnType<typeof openLedger>;
