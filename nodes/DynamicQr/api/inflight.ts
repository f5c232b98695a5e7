import type { IDataObject } from 'n8n-workflow';

/**
 * How many requests one node run keeps in flight, shared by all of them (the router's items and
 * the pages of a list read in parallel): Concurrent Requests when set, otherwise 10, and never
 * more than the plan says it has left (`X-RateLimit-Remaining`). Without Concurrent Requests one
 * request goes first, so that a small plan's bucket is not overrun before its first answer. The
 * plan's rate itself is kept by pacing (pacing.ts). A window that adapted to round trips ran no
 * faster (bench case `window`). One Flight per run, kept by its ApiClient; waiting requests go
 * first come, first served (so earlier items go first).
 */
export const DEFAULT_IN_FLIGHT = 10;

export class Flight {
	private readonly cap: number;

	/** What the plan has left, by the last answer; 1 before the first answer of a default run. */
	private remaining?: number;

	private inFlight = 0;

	private readonly waiting: Array<() => void> = [];

	constructor(cap?: number) {
		const explicit = cap !== undefined && Number.isFinite(cap) && cap >= 1;
		this.cap = explicit ? Math.floor(cap) : DEFAULT_IN_FLIGHT;
		if (!explicit) this.remaining = 1;
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

	/**
	 * Frees the room a request held; an answer's headers tell what the plan has left (an answer
	 * without the header leaves it unknown, and the cap applies).
	 */
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
