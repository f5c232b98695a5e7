import type { IDataObject } from 'n8n-workflow';
import { sleep } from 'n8n-workflow';

/**
 * Shared by every request one node run makes: once the API says few requests are left this
 * minute, requests are spaced at the plan's steady rate instead of burning the rest of the bucket
 * and then meeting a 429 storm; after a 429 every request waits out its Retry-After, not only the
 * one that met it. One Pace per run, kept by its ApiClient.
 */
export class Pace {
	/** Milliseconds between requests while paced; 0 = not paced. */
	intervalMs = 0;
	private nextSlotAt = 0;
	/** No request leaves before this moment (a Retry-After in force). */
	private heldUntil = 0;

	/**
	 * Waits for the request's turn; resolves with how long it waited, or at once with undefined,
	 * taking no slot, when the turn is more than `maxWaitMs` away.
	 */
	async waitForSlot(maxWaitMs = Infinity): Promise<number | undefined> {
		const now = Date.now();
		let slot = Math.max(now, this.heldUntil);
		if (this.intervalMs > 0) slot = Math.max(slot, this.nextSlotAt);
		if (slot - now > maxWaitMs) return undefined;
		if (this.intervalMs > 0) this.nextSlotAt = slot + this.intervalMs;
		if (slot > now) await sleep(slot - now);
		return slot - now;
	}

	/** Keeps every request of the run back until `seconds` from now (a 429's Retry-After). */
	hold(seconds: number): void {
		this.heldUntil = Math.max(this.heldUntil, Date.now() + seconds * 1000);
	}

	/**
	 * Paces the run at the plan's steady rate while fewer than `lowWater` requests are left (the
	 * requests in flight and a spare: what could leave before the next answer).
	 */
	noteRateLimit(headers: IDataObject, lowWater: number): void {
		const limit = Number(headers['x-ratelimit-limit'] ?? NaN);
		const remaining = Number(headers['x-ratelimit-remaining'] ?? NaN);
		if (!Number.isFinite(limit) || !Number.isFinite(remaining) || limit <= 0) return;
		this.intervalMs = remaining < Math.max(2, lowWater) ? 60000 / limit : 0;
		// An empty bucket holds its next request back a whole interval from this answer, which
		// came after the service spent the last request; sooner it would meet a 429.
		if (remaining < 1) this.nextSlotAt = Math.max(this.nextSlotAt, Date.now() + this.intervalMs);
	}
}
