import {
	type IDataObject,
	type IExecuteFunctions,
	type INodeExecutionData,
	type INodeProperties,
	NodeOperationError,
} from 'n8n-workflow';

import { asObject, designShown, isGone, isObject, ownValue } from '../../api';
import { findQrType } from '../../qrTypes';
import { codeFilterOptions, codeListQuery } from '../../shared/codeFilters';
import { filtersProperty } from '../listing';
import { failureItem, pump } from '../pump';
import type { Operation, RecordKey } from '../run';
import { changedRecord, patchBody, readChange } from './changedRecord';
import { differences } from './differences';
import { description as updateProperties } from './update.operation';

const nameFilter: INodeProperties = {
	displayName: 'Name',
	name: 'name',
	type: 'string',
	default: '',
	placeholder: 'e.g. Spring Flyer *',
	description:
		'Only codes whose whole name matches, in any case; * stands for any text. The node applies it to the codes the API lists (the API has no such filter).',
};

export const description: INodeProperties[] = [
	filtersProperty([...codeFilterOptions('list'), nameFilter]),
	{
		displayName: 'Dry Run',
		name: 'dryRun',
		type: 'boolean',
		default: true,
		description:
			'Whether to only list each matching code with what it holds and what it would hold, writing nothing. Turn off to change the codes.',
	},
	{
		displayName: 'At Most',
		name: 'atMost',
		type: 'number',
		typeOptions: { minValue: 1 },
		default: 100,
		description:
			'The most codes to change: when more would be written, the node stops before any change (printed codes are at stake); Dry Run lists them and says so',
	},
];

/** Update Fields, the payload and Replace Payload are Update's, shown here too. */
export const reads = [...description, ...updateProperties];

/** An item may touch any code, known only once listed: items run one after another. */
export const recordKey: RecordKey = () => 'updateMany';

/** `*` any text, the rest as written, in any case. */
const nameMatcher = (pattern: string) => {
	const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
	const regex = new RegExp(`^${escaped.join('.*')}$`, 'is');
	return (code: IDataObject) => !pattern || regex.test(String(code.name ?? ''));
};

/** A code's values in the shape Update reads: its ID, Name, Paused, Type and Payload (JSON). */
const restorable = (code: IDataObject) =>
	Object.fromEntries(['id', 'name', 'paused', 'type', 'payload'].map((key) => [key, code[key]]));

/**
 * Each code's values before this execution first changed it, kept in the node's context: n8n 1.x
 * and 2.x save the context with the execution and a Retry continues from it, so a retry's items and
 * a later input item's hold the values the way back must restore, not the run's own changes.
 */
function firstValues(ctx: IExecuteFunctions): IDataObject {
	const context = ctx.getContext('node');
	if (!isObject(context.before)) context.before = {};
	return context.before as IDataObject;
}

/** "an Email code", "a URL code", "an SMS code": the article goes by the sound of the label. */
function aCodeOf(type: unknown) {
	const label = findQrType(String(type))?.label ?? String(type);
	return `${/^([AEIO]|[FHLMNRSX][A-Z])/.test(label) ? 'an' : 'a'} ${label} code`;
}

const DESIGN_NOTE =
	'Design is sent as given: the service shows no design in its lists, so it is not compared, and the way back (Update from `before`) does not restore it. A design that leaves out keys the code has (a logo_upload_id) may drop them, as the service decides: give every key the codes keep.';

/** Lists the matching codes, then changes those that differ, in list order; or says what it would. */
export const execute: Operation = async function (itemIndex, run, parameters) {
	// Name is the node's filter; the rest go to the API.
	const { name = '', ...filters } = parameters.collection('filters');
	const dryRun = parameters.boolean('dryRun');
	// Empty reads as the default.
	const atMost = parameters.number('atMost') as number;
	const change = readChange(parameters);
	const query = codeListQuery(filters);
	const listed = await run.client.all('/qr-codes', query, undefined, { itemIndex });
	const kept = firstValues(this);

	// What each code would become, without a request: At Most counts the codes to write.
	const planned = listed.filter(nameMatcher(String(name))).map((code) => {
		const before = asObject(ownValue(kept, String(code.id))) ?? restorable(code);
		const common = { id: code.id, before, dryRun, written: false };
		if (change.type && code.type !== change.type.value) {
			const skipped = `${aCodeOf(code.type)}: the payload set here is for ${change.type.label} codes`;
			return { code, item: { ...common, skipped } };
		}
		const wanted = { type: change.type, body: patchBody(parameters, change, code), whole: true };
		const paused = change.body.paused as boolean | undefined;
		const { body, fields, unknown } = differences(code, { ...wanted, paused });
		const changes = [...fields, ...unknown];
		const item = { ...common, changes, after: restorable({ ...code, ...body }) };
		return { code, item, body: changes.length ? body : undefined };
	});
	const writes = planned.filter(({ body }) => body).length;
	const notes: string[] = [];
	if (writes > atMost) {
		const over = `${writes} codes would be written, more than At Most (${atMost})`;
		const fix = `Narrow the filters, or raise At Most to ${writes}.`;
		const refusal = { itemIndex, description: fix };
		if (!dryRun)
			throw new NodeOperationError(this.getNode(), `${over}; nothing was changed`, refusal);
		notes.push(`${over}: a real run would change nothing. ${fix}`);
	}
	if (change.body.design !== undefined) notes.push(DESIGN_NOTE);
	const noted = notes.length ? { notes } : {};

	const write = async (index: number): Promise<INodeExecutionData> => {
		const { code, item, body } = planned[index];
		if (dryRun || !body) return { json: { ...item, ...noted } };
		const id = String(code.id);
		if (ownValue(kept, id) === undefined) kept[id] = item.before;
		try {
			const answer = await changedRecord(run, id, body, itemIndex);
			const design = body.design === undefined ? {} : designShown(answer);
			return { json: { ...item, after: restorable(answer), written: true, ...design, ...noted } };
		} catch (error) {
			const deleted = { id, skipped: 'deleted since it was listed', dryRun, ...noted };
			if (isGone(error)) return { json: deleted };
			const { message, description } = error as { message: string; description?: string };
			const named = new NodeOperationError(this.getNode(), `Code ${id}: ${message}`, {
				itemIndex,
				description,
			});
			return failureItem(this, named, { id, before: item.before });
		}
	};
	// The router's pump: as many at once as the rate model lets leave, started in list order.
	const room = () => run.client.rate.limit;
	const { results, failure } = await pump(planned.length, room, (index) => ({
		work: () => write(index),
	}));
	if (failure) {
		const changed = results.filter((result) => result?.json.written).map(({ json }) => json.id);
		throw new NodeOperationError(this.getNode(), failure.error.message, {
			itemIndex,
			description: `Changed before it stopped: ${changed.join(', ') || 'none'}. Retry this execution from the executions list to change the rest: its items keep in \`before\` each code's values from before the first attempt, for the way back.`,
		});
	}
	return results;
};
