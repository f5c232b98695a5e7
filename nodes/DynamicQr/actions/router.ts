import { type IExecuteFunctions, type INodeExecutionData, NodeOperationError } from 'n8n-workflow';

import { ApiClient } from '../api';
import { RESOURCES } from './resources';
import { operationParameters, readRequestOptions } from './operationParameters';
import { ActionRun } from './run';
import { failureItem, type Job, pump } from './pump';

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

	/** An item's job: one reader, for its record and then the operation (each parameter read once). */
	const job = (itemIndex: number): Job<INodeExecutionData[]> => {
		const parameters = operationParameters(this, itemIndex, reads);
		let key: string | undefined;
		try {
			key = recordKey
				? recordKey.call(this, itemIndex, run, parameters)
				: locator && parameters.recordId(locator.name);
		} catch {
			// Unreadable: the operation reports it, in the item's turn.
		}
		const work = async () => {
			const output = await execute
				.call(this, itemIndex, run, parameters)
				.catch((error: Error) => [failureItem(this, error)]);
			return output.map((entry) => ({ ...entry, pairedItem: { item: itemIndex } }));
		};
		return { key, work };
	};
	// Items run as the rate model has room, a record's items in turn.
	const { results, failure } = await pump(items.length, () => run.client.rate.limit, job);
	if (failure) throw failure.error;
	return [results.flat()];
}
