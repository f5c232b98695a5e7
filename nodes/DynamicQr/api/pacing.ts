import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

import { rateLimitOf } from './edge/statuses';

/**
 * One per run: once few requests are left this minute, requests are spaced at the plan's rate
 * instead of meeting a 429 storm; a 429's Retry-After holds every request, not only its own.
 */
export class Pace {
	/** Milliseconds between requests while paced; 0 = not paced. */
	intervalMs = 0;
	private nextSlotAt = 0;
	/** No request leaves before this moment (a Retry-After in force). */
	private heldUntil = 0;
	/** The plan's requests a minute as `X-RateLimit-Limit` said (not in the reference). */
	saidLimit?: number;
	/** The plan's requests a minute at least: the most `X-RateLimit-Remaining` left, plus one. */
	leftBound?: number;

	/** Waits for the request's turn; undefined at once, taking no slot, if beyond `maxWaitMs`. */
	async waitForSlot(maxWaitMs = Infinity): Promise<number | undefined> {
		const now = Date.now();
		let slot = Math.max(now, this.heldUntil);
		if (this.intervalMs > 0) slot = Math.max(slot, this.nextSlotAt);
		if (slot - now > maxWaitMs) return undefined;
		if (this.intervalMs > 0) this.nextSlotAt = slot + this.intervalMs;
		if (slot > now) await sleep(slot - now);
		return slot - now;
	}

	/** Keeps every request of the run back for `seconds`. */
	hold(seconds: number): void {
		this.heldUntil = Math.max(this.heldUntil, Date.now() + seconds * 1000);
	}

	/** Paces the run while fewer than `lowWater` requests are left (what could leave meanwhile). */
	noteRateLimit(headers: IDataObject, lowWater: number): void {
		const { limit, remaining } = rateLimitOf(headers);
		this.saidLimit = limit ?? this.saidLimit;
		if (remaining !== undefined) this.leftBound = Math.max(this.leftBound ?? 0, remaining + 1);
		if (limit === undefined || remaining === undefined || limit <= 0) return;
		this.intervalMs = remaining < Math.max(2, lowWater) ? 60000 / limit : 0;
		// An empty bucket holds its next request back a whole interval from this answer, which
		// came after the service spent the last request; sooner it would meet a 429.
		if (remaining < 1) this.nextSlotAt = Math.max(this.nextSlotAt, Date.now() + this.intervalMs);
	}
}
