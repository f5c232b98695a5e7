import type { IDataObject } from 'n8n-workflow';

import type { ActionRun } from '../../run';

/**
 * The account's codes by id and by name, read once per node run and kept up to date with what the
 * run creates and changes, so that an item sees the codes made by the items before it.
 */
export class CodeIndex {
	private readonly byId = new Map<string, IDataObject>();

	private readonly byName = new Map<string, Set<IDataObject>>();

	constructor(records: IDataObject[]) {
		for (const record of records) this.put(record);
	}

	put(record: IDataObject): void {
		const previous = this.byId.get(String(record.id));
		if (previous) this.byName.get(String(previous.name))?.delete(previous);
		this.byId.set(String(record.id), record);
		const name = String(record.name);
		this.byName.set(name, (this.byName.get(name) ?? new Set()).add(record));
	}

	withId(id: string): IDataObject | undefined {
		return this.byId.get(id);
	}

	/** Codes whose name is exactly `name` (case and spaces count). */
	named(name: string): IDataObject[] {
		return [...(this.byName.get(name) ?? [])];
	}
}

const CODE_INDEX = Symbol('codeIndex');

/** A failed read fails every item with the same error, rather than costing a request per row. */
export const codeIndex = (run: ActionRun, itemIndex: number): Promise<CodeIndex> =>
	run.keep(CODE_INDEX, () =>
		run.client
			.all('/qr-codes', {}, undefined, { itemIndex })
			.then((records) => new CodeIndex(records)),
	);

/** The run's read of the list, once started: a create waits for it so as not to change the list. */
export const codeIndexRead = (run: ActionRun) =>
	run.kept.get(CODE_INDEX) as Promise<CodeIndex> | undefined;
