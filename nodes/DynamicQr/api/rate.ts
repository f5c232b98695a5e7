import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { atLeast } from './edge/records';
import { rateLimitOf } from './edge/statuses';

/** Requests in flight without Concurrent Requests; an adaptive window ran no faster (bench `window`). */
export const DEFAULT_IN_FLIGHT = 10;

/**
 * One per run: the plan's rate as every answer tells it (`X-RateLimit-Limit`,
 * `X-RateLimit-Remaining`, a 429's `Retry-After`). It answers how many requests may be in flight
 * (Concurrent Requests, after a first one alone, so that a small plan's bucket is not overrun
 * before its first answer; never more than the plan has left), when the next may leave (spaced at
 * the plan's rate once few are left; all held while a Retry-After is in force), and, for a poll's
 * share (polling/share.ts), what the plan's rate is as told or learnt.
 */
export class RateModel {
	private readonly cap: number;
	/** What the plan has left, by the last answer; 1 before the first. */
	private remaining?: number = 1;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];
	/** Milliseconds between requests while paced; 0 = not paced. */
	intervalMs = 0;
	private nextSlotAt = 0;
	/** No request leaves before this moment (a Retry-After in force). */
	private heldUntil = 0;
	/** The plan's requests a minute as `X-RateLimit-Limit` said (not in the reference). */
	saidLimit?: number;
	/** The plan's requests a minute at least: the most `X-RateLimit-Remaining` left, plus one. */
	leftBound?: number;

	constructor(cap?: number) {
		this.cap = Math.floor(atLeast(cap, 1) ?? DEFAULT_IN_FLIGHT);
	}

	/** Requests this run may have in flight right now. */
	get limit(): number {
		return Math.max(1, Math.min(this.cap, this.remaining ?? this.cap));
	}

	/**
	 * Room in flight, then the request's turn; the ms waited for the turn. Undefined at once,
	 * holding nothing and taking no turn, when the turn is further away than `maxWaitMs` (a poll
	 * near the end of its budget).
	 */
	async acquire(maxWaitMs = Infinity): Promise<number | undefined> {
		if (this.waiting.length === 0 && this.inFlight < this.limit) this.inFlight++;
		else await new Promise<void>((resolve) => this.waiting.push(resolve));
		const now = Date.now();
		let slot = Math.max(now, this.heldUntil);
		if (this.intervalMs > 0) slot = Math.max(slot, this.nextSlotAt);
		if (slot - now > maxWaitMs) {
			this.release();
			return undefined;
		}
		if (this.intervalMs > 0) this.nextSlotAt = slot + this.intervalMs;
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

	/** Keeps every request of the run back for `seconds`. */
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
}
