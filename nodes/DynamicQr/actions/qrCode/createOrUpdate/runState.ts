import type { ActionRun } from '../../run';
import { CodeIndex } from './codeIndex';

/** What Create or Update keeps for one run of the node (ActionRun.keep). */
interface UpsertState {
	index?: Promise<CodeIndex>;
}

const UPSERT_STATE = Symbol('createOrUpdate');

const stateOf = (run: ActionRun) => run.keep<UpsertState>(UPSERT_STATE, () => ({}));

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
