import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';

import type { ApiClient } from '../api';
import type { ParameterReader } from '../shared/parameters';
import type { CodeIndex } from './qrCode/createOrUpdate/match';

/** A run of the action node: one client for all its items, and what operations keep across them. */
export class ActionRun {
	/** Create or Update: the account's codes, read once, and the creates under way. */
	codeIndex?: Promise<CodeIndex>;
	readonly creates = new Set<Promise<unknown>>();
	/** Get Scan Report: the shortest range the service refused as too long (days). */
	refusedDays = Infinity;
	/** Download Image: each item's File Name, made distinct in input order. */
	fileNames?: Array<string | undefined>;

	constructor(
		readonly ctx: IExecuteFunctions,
		readonly client: ApiClient,
	) {}
}

/** An item's index, the run, and the item's reader (by the operation's declared fields). */
type Args = [itemIndex: number, run: ActionRun, parameters: ParameterReader];

export type Operation = (this: IExecuteFunctions, ...args: Args) => Promise<INodeExecutionData[]>;

/** The record an item acts on, read without a request, so that a record's items run in turn. */
export type RecordKey = (this: IExecuteFunctions, ...args: Args) => string | undefined;

export interface OperationModule {
	description: INodeProperties[];
	/** The fields the item's parameters are read by, when more than its description's. */
	reads?: INodeProperties[];
	execute: Operation;
	/** The item's record, where it is not the one the operation's locator names. */
	recordKey?: RecordKey;
}

/** An operation's output: one item per record. */
export const toItems = (records: IDataObject | IDataObject[]): INodeExecutionData[] =>
	(Array.isArray(records) ? records : [records]).map((json) => ({ json }));
