import type { IDataObject } from 'n8n-workflow';

import { atLeast } from './edge/records';
import { rateLimitOf } from './edge/statuses';

/**
 * Requests in flight: Concurrent Requests (10 without it), after a first one alone (a small plan's
 * bucket is not overrun before its first answer). An adaptive window ran no faster (bench `window`).
 */
export const DEFAULT_IN_FLIGHT = 10;

export class Flight {
	private readonly cap: number;
	/** What the plan has left, by the last answer; 1 before the first answer. */
	private remaining?: number = 1;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(cap?: number) {
		this.cap = Math.floor(atLeast(cap, 1) ?? DEFAULT_IN_FLIGHT);
	}

	/** Requests this run may have in flight right now. */
	get limit(): number {
		return Math.max(1, Math.min(this.cap, this.remaining ?? this.cap));
	}

	async acquire(): Promise<void> {
		if (this.waiting.length === 0 && this.inFlight < this.limit) {
			this.inFlight++;
			return;
		}
		await new Promise<void>((resolve) => this.waiting.push(resolve));
	}

	/** Frees a request's room; the answer's headers tell what the plan has left. */
	release(headers?: IDataObject): void {
		this.inFlight--;
		if (headers) this.remaining = rateLimitOf(headers).remaining;
		while (this.waiting.length && this.inFlight < this.limit) {
			this.inFlight++;
			this.waiting.shift()?.();
		}
	}
}
