import type { IDataObject } from 'n8n-workflow';

/**
 * How many requests one node run keeps in flight, shared by all of them (the router's items
 * and the pages of a list read in parallel). Nobody has to tune it: it starts at one request,
 * grows while answers come back fast and the plan has room (doubling per round trip at first,
 * then one more per round trip), halves when the service is overloaded, never exceeds what
 * `X-RateLimit-Remaining` says is left, and once requests are paced at the plan's rate keeps
 * just enough in flight to take every paced slot (more would only wait for theirs).
 * An explicit cap (Concurrent Requests) starts there and is never exceeded. One Flight per
 * run, kept by its ApiClient.
 */
interface FlightState {
	cap: number;
	/** The current window; fractional while it grows by one per round trip. */
	window: number;
	/** Where doubling ends and one-per-round-trip growth begins. */
	threshold: number;
	inFlight: number;
	waiting: Array<() => void>;
	remaining?: number;
	fastestMs?: number;
}

/** The most requests in flight when the user sets no cap (the option's own maximum). */
const ADAPTIVE_CAP = 20;

export interface FlightOutcome {
	/** Time from sending to the answer; undefined when no answer came. */
	roundTripMs?: number;
	/** The service was overloaded (5xx), or said slow down (429) without saying what is left. */
	overloaded: boolean;
	headers?: IDataObject;
	/** While requests are paced: milliseconds between them (0 = not paced). */
	pacedIntervalMs: number;
	/** How long the request waited for its paced slot (0: the slot was free). */
	slotWaitMs?: number;
}

function remainingOf(headers: IDataObject | undefined): number | undefined {
	const raw = headers?.['x-ratelimit-remaining'];
	const value = Number(raw);
	return raw !== undefined && raw !== '' && Number.isFinite(value) ? Math.max(0, value) : undefined;
}

/** The requests in flight of one run (its ApiClient). */
export class Flight {
	private readonly state: FlightState;

	/** An explicit cap starts the window at the cap; without one the window adapts from one. */
	constructor(cap?: number) {
		const explicit = cap !== undefined && Number.isFinite(cap) && cap >= 1;
		const limit = explicit ? Math.floor(cap) : ADAPTIVE_CAP;
		this.state = {
			cap: limit,
			window: explicit ? limit : 1,
			threshold: limit,
			inFlight: 0,
			waiting: [],
		};
	}

	/** Requests this run may have in flight right now. */
	get limit(): number {
		const { window, cap, remaining } = this.state;
		const byPlan = remaining === undefined ? Infinity : remaining;
		return Math.max(1, Math.min(Math.floor(window), cap, byPlan));
	}

	/** Waits for room, first come first served (so earlier items go first). */
	async acquire(): Promise<void> {
		const flight = this.state;
		if (flight.waiting.length === 0 && flight.inFlight < this.limit) {
			flight.inFlight++;
			return;
		}
		await new Promise<void>((resolve) => flight.waiting.push(resolve));
	}

	/** Frees the room a request held and learns from its answer. */
	release(outcome: FlightOutcome): void {
		const flight = this.state;
		flight.inFlight = Math.max(0, flight.inFlight - 1);
		const remaining = remainingOf(outcome.headers);
		if (remaining !== undefined) flight.remaining = remaining;
		if (outcome.overloaded) {
			flight.window = Math.max(1, flight.window / 2);
			flight.threshold = flight.window;
		} else {
			this.grow(outcome);
		}
		while (flight.waiting.length && flight.inFlight < this.limit) {
			flight.inFlight++;
			flight.waiting.shift()?.();
		}
	}

	private grow(outcome: FlightOutcome): void {
		const flight = this.state;
		const { roundTripMs, pacedIntervalMs, slotWaitMs = 0 } = outcome;
		if (roundTripMs === undefined) return;
		flight.fastestMs = Math.min(flight.fastestMs ?? roundTripMs, roundTripMs);
		if (pacedIntervalMs > 0) {
			// Bound by the rate: a request that found its paced slot free means the slots are not
			// all taken (answers, or the work between an item's requests, take longer than the
			// slots): one more in flight. One that waited for several slots means more are in
			// flight than keep the slots taken, and each only waits: one fewer.
			if (slotWaitMs === 0) flight.window = Math.min(flight.cap, flight.window + 1);
			else if (slotWaitMs > 2 * pacedIntervalMs) flight.window = Math.max(1, flight.window - 1);
			return;
		}
		// Answers slowing well beyond the fastest seen mean requests queue at the service: hold.
		if (roundTripMs > 2 * flight.fastestMs + 20) return;
		const step = flight.window < flight.threshold ? 1 : 1 / flight.window;
		flight.window = Math.min(flight.cap, flight.window + step);
	}
}
