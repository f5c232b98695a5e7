import type { IExecuteFunctions, INodeExecutionData, INodeProperties } from 'n8n-workflow';

import type { ClientSettings } from '../api';
import { ApiClient } from '../api';
import type { ParameterReader } from '../shared/parameters';

/**
 * One run of the action node, handed by the router to every item's operation: the run's client
 * (one credential read, one budget of requests in flight, one pace for all items) and what an
 * operation keeps across the items of the run (Create or Update's list of codes).
 */
export class ActionRun {
	readonly client: ApiClient;

	/** What operations keep for the whole run, each under its own key. */
	readonly kept = new Map<symbol, unknown>();

	constructor(
		readonly ctx: IExecuteFunctions,
		settings: ClientSettings,
	) {
		this.client = new ApiClient(ctx, settings);
	}

	/** What the run keeps under `key`, made by `create` on first use. */
	keep<T>(key: symbol, create: () => T): T {
		if (!this.kept.has(key)) this.kept.set(key, create());
		return this.kept.get(key) as T;
	}
}

/** What every operation module exports to run one item, read by its declared `parameters`. */
export type Operation = (
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
	parameters: ParameterReader,
) => Promise<INodeExecutionData[]>;

/**
 * The record an item acts on (a code's ID, a name Create or Update matches by), for the router to
 * run the items of one record one after another; undefined when the item names none. Read
 * without a request; a value it cannot read is the operation's to report.
 */
export type RecordKey = (
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
) => string | undefined;

export interface OperationModule {
	description: INodeProperties[];
	/** The fields the item's parameters are read by, when more than its description's. */
	reads?: INodeProperties[];
	execute: Operation;
	/** The item's record, where it is not the one the operation's locator names. */
	recordKey?: RecordKey;
}
