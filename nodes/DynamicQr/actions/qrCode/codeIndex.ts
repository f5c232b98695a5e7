import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../api';

/**
 * The account's codes by id and by name, read once per node run (one Return All, shared by every
 * item, whichever starts first) and kept up to date with what this run creates and changes, so
 * that an item later in the run sees the codes made by the items before it.
 */
export class CodeIndex {
	private readonly byId = new Map<string, IDataObject>();

	private readonly byName = new Map<string, IDataObject[]>();

	constructor(records: IDataObject[]) {
		for (const record of records) this.put(record);
	}

	/** Adds a code, or replaces it (by id) after a change, its name included. */
	put(record: IDataObject): void {
		const id = String(record.id);
		const previous = this.byId.get(id);
		if (previous) {
			const named = this.byName.get(String(previous.name)) ?? [];
			this.byName.set(
				String(previous.name),
				named.filter((entry) => entry !== previous),
			);
		}
		this.byId.set(id, record);
		const name = String(record.name);
		this.byName.set(name, [...(this.byName.get(name) ?? []), record]);
	}

	withId(id: string): IDataObject | undefined {
		return this.byId.get(id);
	}

	/** Codes whose name is exactly `name` (case and spaces count). */
	named(name: string): IDataObject[] {
		return this.byName.get(name) ?? [];
	}
}

interface RunState {
	index?: Promise<CodeIndex>;
	/** The last piece of work queued per match key; it never rejects. */
	tails: Map<string, Promise<unknown>>;
}

/**
 * One state per node run. The router runs every item of a run on the same context object, and
 * n8n makes a new one for the next run, so the context is the run's identity.
 */
const runs = new WeakMap<object, RunState>();

function runState(ctx: IExecuteFunctions): RunState {
	let state = runs.get(ctx);
	if (!state) {
		state = { tails: new Map() };
		runs.set(ctx, state);
	}
	return state;
}

/**
 * The run's index; the first item to ask reads the list. A failed read fails every item of the
 * run with the same error rather than being tried again per item (a refused key would otherwise
 * cost a request per row).
 */
export function codeIndex(ctx: IExecuteFunctions, itemIndex: number): Promise<CodeIndex> {
	const state = runState(ctx);
	state.index ??= apiRequestAllItems(ctx, '/qr-codes', {}, undefined, { itemIndex }).then(
		(records) => new CodeIndex(records),
	);
	return state.index;
}

/**
 * Runs `work` after every earlier work of this run with the same key has finished. Items that
 * match the same code (two rows with one name) then see each other's changes instead of both
 * creating it, whatever Concurrent Requests is; items with other keys run side by side.
 */
export async function oneAtATime<T>(
	ctx: IExecuteFunctions,
	key: string | undefined,
	work: () => Promise<T>,
): Promise<T> {
	if (key === undefined) return await work();
	const { tails } = runState(ctx);
	const before = tails.get(key) ?? Promise.resolve();
	const mine = before.then(work);
	const tail = mine.catch(() => undefined);
	tails.set(key, tail);
	try {
		return await mine;
	} finally {
		if (tails.get(key) === tail) tails.delete(key);
	}
}
