import type { ActionRun } from '../../shared/run';
import { CodeIndex } from './codeIndex';

/** What Create or Update keeps for one run of the node (ActionRun.keep). */
interface UpsertState {
	index?: Promise<CodeIndex>;
	/** The last piece of work queued per match key; it never rejects. */
	tails: Map<string, Promise<unknown>>;
}

const UPSERT_STATE = Symbol('createOrUpdate');

const stateOf = (run: ActionRun) =>
	run.keep<UpsertState>(UPSERT_STATE, () => ({ tails: new Map() }));

/**
 * The run's index of codes; the first item to ask reads the list. A failed read fails every
 * item of the run with the same error rather than being tried again per item (a refused key
 * would otherwise cost a request per row).
 */
export function codeIndex(run: ActionRun, itemIndex: number): Promise<CodeIndex> {
	const state = stateOf(run);
	state.index ??= run.client
		.all('/qr-codes', {}, undefined, { itemIndex })
		.then((records) => new CodeIndex(records));
	return state.index;
}

/**
 * Runs `work` after every earlier work of this run with the same key has finished. Items that
 * match the same code (two rows with one name) then see each other's changes instead of both
 * creating it, whatever Concurrent Requests is; items with other keys run side by side.
 */
export async function oneAtATime<T>(
	run: ActionRun,
	key: string | undefined,
	work: () => Promise<T>,
): Promise<T> {
	if (key === undefined) return await work();
	const { tails } = stateOf(run);
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
