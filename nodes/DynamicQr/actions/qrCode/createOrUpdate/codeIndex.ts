import type { IDataObject } from 'n8n-workflow';

import type { ActionRun } from '../../run';

/** The account's codes by id and name, read once per run and kept up to date with its changes. */
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

const [CODE_INDEX, CREATES] = [Symbol('codeIndex'), Symbol('creates')];
const creates = (run: ActionRun) => run.keep(CREATES, () => new Set<Promise<unknown>>());

/** Read once, after the run's creates under way (they change the list); a failure fails every item. */
export const codeIndex = (run: ActionRun, itemIndex: number): Promise<CodeIndex> =>
	run.keep(CODE_INDEX, async () => {
		await Promise.allSettled(creates(run));
		return new CodeIndex(await run.client.all('/qr-codes', {}, undefined, { itemIndex }));
	});

/** A create: after the run's read of the list when one started, else one that read waits for. */
export async function creating<T>(run: ActionRun, create: () => Promise<T>): Promise<T> {
	const read = run.kept.get(CODE_INDEX) as Promise<CodeIndex> | undefined;
	if (read) await read.catch(() => undefined);
	const sent = create();
	creates(run).add(sent);
	return await sent.finally(() => creates(run).delete(sent));
}
