import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import * as account from './account';
import * as card from './card';
import * as lead from './lead';
import * as logo from './logo';
import * as qrCode from './qrCode';
import * as staticQrCode from './staticQrCode';
import * as webhookEndpoint from './webhookEndpoint';
import { readRequestOptions } from './shared/parameters';
import type { Operation } from './shared/run';
import { ActionRun } from './shared/run';

const resources: Record<string, { operations: Record<string, { execute: Operation }> }> = {
	account,
	qrCode,
	staticQrCode,
	logo,
	card,
	lead,
	webhookEndpoint,
};

/**
 * Every operation by "resource:operation". A Map, so that a value naming a member of every
 * object ("constructor", "toString") finds no operation.
 */
const OPERATIONS = new Map<string, Operation>(
	Object.entries(resources).flatMap(([resource, { operations }]) =>
		Object.entries(operations).map(([operation, { execute }]) => [
			`${resource}:${operation}`,
			execute,
		]),
	),
);

/**
 * Runs the chosen operation once per input item and returns the results in input order, each
 * paired to its item. Every item's operation gets the run (its one ApiClient). Items start in
 * order while the run has room for another request in flight (the client's Flight: "Concurrent
 * Requests" when set, otherwise adapted to what the API says). With Continue On Fail an item's error becomes its output; otherwise the first failure
 * stops the run.
 */
export async function router(this: IExecuteFunctions): Promise<INodeExecutionData[][]> {
	const items = this.getInputData();
	const resource = this.getNodeParameter('resource', 0) as string;
	const operation = this.getNodeParameter('operation', 0) as string;
	const execute = OPERATIONS.get(`${resource}:${operation}`);
	if (!execute) {
		throw new NodeOperationError(
			this.getNode(),
			`The operation "${operation}" of resource "${resource}" is not supported`,
		);
	}

	const run = new ActionRun(this, readRequestOptions(this));
	const { flight } = run.client;

	const toErrorOutput = this.getNode().onError === 'continueErrorOutput';
	const results: INodeExecutionData[][] = new Array(items.length);
	let failure: { itemIndex: number; error: Error } | undefined;

	const runItem = async (itemIndex: number) => {
		try {
			const output = await execute.call(this, itemIndex, run);
			results[itemIndex] = output.map((entry) => ({ ...entry, pairedItem: { item: itemIndex } }));
		} catch (error) {
			if (!this.continueOnFail()) {
				// Keep the failure of the earliest item, as a one-at-a-time run would have.
				if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error };
				return;
			}
			const { message, description } = error as { message: string; description?: string };
			// "Continue (using error output)": n8n 1.x and 2.x move an item whose only key is
			// `error` to the error output, merged with its input item; the fix goes in the text.
			const json = toErrorOutput
				? { error: description ? `${message}. ${description}` : message }
				: { error: message, ...(description ? { description } : {}) };
			results[itemIndex] = [{ json, pairedItem: { item: itemIndex } }];
		}
	};

	// Every finished item starts as many next ones as the run has room for (the room grows
	// and shrinks with the API's answers), so no more items are under way than requests allowed.
	await new Promise<void>((resolve) => {
		let next = 0;
		let active = 0;
		const pump = () => {
			while (!failure && next < items.length && active < flight.limit) {
				active++;
				const itemIndex = next++;
				void runItem(itemIndex)
					.catch((error: Error) => {
						if (!failure || itemIndex < failure.itemIndex) failure = { itemIndex, error };
					})
					.finally(() => {
						active--;
						pump();
					});
			}
			if (active === 0) resolve();
		};
		pump();
	});

	if (failure) throw failure.error;
	return [results.flat()];
}
