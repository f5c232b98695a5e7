import { sleep, type IDataObject } from 'n8n-workflow';

import { atLeast } from './edge/records';
import { rateLimitOf } from './edge/statuses';

/** Requests in flight without Concurrent Requests; an adaptive window ran no faster (bench `window`). */
export const DEFAULT_IN_FLIGHT = 10;

/**
 * What a trigger's reads may take of the plan; the rest is for workflows on the same key. Half: a
 * bulk create meanwhile runs at half speed, a 10,000-code sweep at 60 a minute takes minutes.
 */
export const DEFAULT_PLAN_SHARE_PERCENT = 50;
const ASSUMED_PLAN_LIMIT = 60; // the smallest plan known, while nothing tells the plan's rate
const MINUTE_MS = 60_000;
const BUDGET_USE = 0.8; // of a poll's budget, what paced requests may fill (the rest: answers)

export interface PlanShare {
	sharePercent: number; // Share of Plan (%)
	planLimit?: number; // Plan Requests per Minute
	learntLimit?: number; // what past polls learnt
	sinceLastPollMs?: number; // none on the first poll, which takes the least (its interval unknown)
}

/**
 * One per run: the plan's rate as answers tell it. A first request goes alone, so a small plan's
 * bucket is not overrun before its first answer; then Concurrent Requests, never more than the
 * plan has left, paced at the plan's rate once few are left (or at a share of it throughout).
 */
export class RateModel {
	private readonly cap: number;
	private remaining?: number = 1; // by the last answer
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	intervalMs = 0; // between requests while paced (0: not paced)
	private nextSlotAt = 0;
	private lastSlotAt = 0;
	private heldUntil = 0; // a Retry-After in force
	private saidLimit?: number; // the plan's rate as X-RateLimit-Limit said (not in the reference)
	private leftBound?: number; // the plan's at least: the most X-RateLimit-Remaining left, plus one

	constructor(
		cap?: number,
		private readonly pace?: PlanShare,
	) {
		this.cap = Math.floor(atLeast(cap, 1) ?? DEFAULT_IN_FLIGHT);
	}

	/** Requests this run may have in flight right now. */
	get limit(): number {
		return Math.max(1, Math.min(this.cap, this.remaining ?? this.cap));
	}

	/** Room in flight, then its turn: the ms waited; undefined, holding nothing, past `maxWaitMs`. */
	async acquire(maxWaitMs = Infinity): Promise<number | undefined> {
		if (this.waiting.length === 0 && this.inFlight < this.limit) this.inFlight++;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		const now = Date.now();
		let slot = Math.max(now, this.heldUntil);
		if (this.intervalMs > 0) slot = Math.max(slot, this.nextSlotAt);
		if (this.pace) slot = Math.max(slot, this.lastSlotAt + MINUTE_MS / this.perMinute(this.pace));
		if (slot - now > maxWaitMs) {
			this.release();
			return undefined;
		}
		if (this.intervalMs > 0) this.nextSlotAt = slot + this.intervalMs;
		this.lastSlotAt = slot;
		if (slot > now) await sleep(slot - now);
		return slot - now;
	}

	/** Frees a request's room; its answer's headers tell what the plan has left. */
	release(headers?: IDataObject): void {
		this.inFlight--;
		if (headers) this.learn(headers);
		while (this.waiting.length && this.inFlight < this.limit) {
			this.inFlight++;
			this.waiting.shift()?.();
		}
	}

	hold(seconds: number): void {
		this.heldUntil = Math.max(this.heldUntil, Date.now() + seconds * 1000);
	}

	/** Paced while fewer requests are left than could leave meanwhile (those in flight, and one). */
	private learn(headers: IDataObject): void {
		const { limit, remaining } = rateLimitOf(headers);
		const lowWater = this.limit + 1;
		this.remaining = remaining;
		this.saidLimit = limit ?? this.saidLimit;
		if (remaining !== undefined) this.leftBound = Math.max(this.leftBound ?? 0, remaining + 1);
		if (limit === undefined || remaining === undefined || limit <= 0) return;
		this.intervalMs = remaining < lowWater ? 60000 / limit : 0;
		// An empty bucket holds its next request back a whole interval from this answer, which
		// came after the service spent the last request; sooner it would meet a 429.
		if (remaining < 1) this.nextSlotAt = Math.max(this.nextSlotAt, Date.now() + this.intervalMs);
	}

	/** What a poll keeps for the next: the highest bound `X-RateLimit-Remaining` gave so far. */
	learntLimit(share: PlanShare): number | undefined {
		return Math.max(this.leftBound ?? 0, share.learntLimit ?? 0) || undefined;
	}

	/** `percent` (the share's by default) of the plan's requests a minute as far as known now. */
	private perMinute(share: PlanShare, percent = share.sharePercent): number {
		const plan = share.planLimit ?? this.saidLimit ?? this.learntLimit(share) ?? ASSUMED_PLAN_LIMIT;
		return (plan * percent) / 100;
	}

	/** A poll's share of the plan since the last (at most a minute's), within its budget; >= 2. */
	requestsPerPoll(share: PlanShare, msLeft: number): number {
		const spanMs = Math.min(share.sinceLastPollMs ?? 0, MINUTE_MS);
		const inSpan = this.perMinute(share) * (spanMs / MINUTE_MS);
		const inBudget = (this.perMinute(share, 100) * Math.max(0, msLeft) * BUDGET_USE) / MINUTE_MS;
		return Math.max(2, Math.floor(Math.min(inSpan, inBudget)));
	}
}
