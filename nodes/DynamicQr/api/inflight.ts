import type { IDataObject } from 'n8n-workflow';

/** A setting when it is a finite number of at least `min`. */
export const atLeast = (value: number | undefined, min: number): number | undefined =>
	value !== undefined && Number.isFinite(value) && value >= min ? value : undefined;

/**
 * How many requests one node run keeps in flight, shared by all of them (the router's items and
 * the pages of a list read in parallel): Concurrent Requests when set, otherwise 10, and never
 * more than the plan says it has left (`X-RateLimit-Remaining`). Without Concurrent Requests one
 * request goes first, so that a small plan's bucket is not overrun before its first answer. The
 * plan's rate itself is kept by pacing.ts. A window that adapted to round trips ran no faster
 * (bench case `window`). Waiting requests go first come, first served (earlier items first).
 */
export const DEFAULT_IN_FLIGHT = 10;

export class Flight {
	private readonly cap: number;
	/** What the plan has left, by the last answer; 1 before the first answer of a default run. */
	private remaining?: number;
	private inFlight = 0;
	private readonly waiting: Array<() => void> = [];

	constructor(cap?: number) {
		const explicit = atLeast(cap, 1);
		this.cap = explicit === undefined ? DEFAULT_IN_FLIGHT : Math.floor(explicit);
		if (explicit === undefined) this.remaining = 1;
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

	/** Frees a request's room; an answer's headers tell what the plan has left (none: unknown). */
	release(headers?: IDataObject): void {
		this.inFlight--;
		if (headers) {
			const raw = headers['x-ratelimit-remaining'];
			const remaining = Number(raw);
			this.remaining =
				raw !== undefined && raw !== '' && Number.isFinite(remaining) ? remaining : undefined;
		}
		while (this.waiting.length && this.inFlight < this.limit) {
			this.inFlight++;
			this.waiting.shift()?.();
		}
	}
}
