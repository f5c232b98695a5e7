import type { IDataObject } from 'n8n-workflow';

import type { ActionRun } from '../../run';

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
		const previous = this.byId.get(String(record.id));
		if (previous) {
			const name = String(previous.name);
			this.byName.set(
				name,
				this.named(name).filter((entry) => entry !== previous),
			);
		}
		this.byId.set(String(record.id), record);
		this.byName.set(String(record.name), [...this.named(String(record.name)), record]);
	}

	withId(id: string): IDataObject | undefined {
		return this.byId.get(id);
	}

	/** Codes whose name is exactly `name` (case and spaces count). */
	named(name: string): IDataObject[] {
		return this.byName.get(name) ?? [];
	}
}

const CODE_INDEX = Symbol('codeIndex');

/**
 * The run's index of codes; the first item to ask reads the list. A failed read fails every
 * item of the run with the same error rather than being tried again per item (a refused key
 * would otherwise cost a request per row).
 */
export const codeIndex = (run: ActionRun, itemIndex: number): Promise<CodeIndex> =>
	run.keep(CODE_INDEX, () =>
		run.client
			.all('/qr-codes', {}, undefined, { itemIndex })
			.then((records) => new CodeIndex(records)),
	);

/**
 * The run's read of the list of codes, once an item has started it. A create waits for it: the
 * run's own new codes would otherwise change the list under the read, which reads it again.
 */
export const codeIndexRead = (run: ActionRun) =>
	run.kept.get(CODE_INDEX) as Promise<CodeIndex> | undefined;
