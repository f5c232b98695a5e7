import { type IExecuteFunctions, type INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { ApiClient } from '../api';
import { RESOURCES } from './resources';
import { operationParameters, readRequestOptions } from './operationParameters';
import { ActionRun } from './run';
import type { ParameterReader } from '../shared/parameters';

/** A Map, so that "constructor" or "toString" finds no operation. */
const OPERATIONS = new Map(RESOURCES.flatMap(({ operations }) => operations));

/** Runs the operation once per item, a record's items in turn; results in input order, paired. */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const chosen = OPERATIONS.get(`${resource}:${operation}`);
	if (!chosen) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}
	const { execute, description, reads = description, recordKey } = chosen;
	// Unless the operation says otherwise, an item's record is the one its locator names.
	const locator = description.find((property) => property.type === 'resourceLocator');

	const run = new ActionRun(this, new ApiClient(this, readRequestOptions(this)));

	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const results: INodeExecutionData[][] = new Array(items.length);
	let failure: { itemIndex: number; error: Error } | undefined;

	const runItem = async (itemIndex: number, parameters: ParameterReader) => {
		const output = await execute.call(this, itemIndex, run, parameters).catch((error: Error) => {
			if (!this.continueOnFail()) throw error;
			const { message, description } = error as { message: string; description?: string };
			// "Continue (using error output)": n8n 1.x and 2.x move an item whose only key is
			// `error` to the error output, merged with its input item; the fix goes in the text.
			const json = toErrorOutput
				? { error: description ? `${message}. ${description}` : message }
				: { error: message, ...(description ? { description } : {}) };
			return [{ json }];
		});
		results[itemIndex] = output.map((entry) => ({ ...entry, pairedItem: { item: itemIndex } }));
	};

	// A finished item starts the next one of its record, then as many as the rate model has room for.
	await new Promise<void>((resolve) => {
		let next = 0;
		let active = 0;
		/** Per record with an item running: the items waiting for it, with their readers. */
		const waiting = new Map<string | undefined, Array<[number, ParameterReader]>>();
		const start = (itemIndex: number, parameters: ParameterReader, key: string | undefined) => {
			active++;
			void runItem(itemIndex, parameters)
				.catch((error: Error) => {
					// Keep the failure of the earliest item, as a one-at-a-time run would have.
					if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error };
				})
				.finally(() => {
					active--;
					const following = waiting.get(key)?.shift();
					if (following === undefined) waiting.delete(key);
					else if (!failure) start(...following, key);
					pump();
				});
		};
		const pump = () => {
			while (!failure && next < items.length && active < run.client.rate.limit) {
				const itemIndex = next++;
				// One reader an item, for its record and then the operation: each parameter read once.
				const parameters = operationParameters(this, itemIndex, reads);
				let key: string | undefined;
				try {
					key = recordKey
						? recordKey.call(this, itemIndex, run, parameters)
						: locator && parameters.recordId(locator.name);
				} catch {
					// Unreadable: the operation reports it, in the item's turn.
				}
				const queue = waiting.get(key);
				if (queue) queue.push([itemIndex, parameters]);
				else {
					if (key !== undefined) waiting.set(key, []);
					start(itemIndex, parameters, key);
				}
			}
			if (active === 0) resolve();
		};
		pump();
	});

	if (failure) throw failure.error;
	return [results.flat()];
}
