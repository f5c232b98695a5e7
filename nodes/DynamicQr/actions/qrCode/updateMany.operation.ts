import { type IDataObject, type INodeProperties, NodeOperationError } from 'n8n-workflow';

import { isGone } from '../../api';
import { codeFilterOptions, codeListQuery } from '../../shared/codeFilters';
import { filtersProperty } from '../listing';
import { type Operation, type RecordKey, toItems } from '../run';
import { changedRecord, patchBody, readChange } from './changedRecord';
import { differences } from './createOrUpdate/differences';
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
			'The most codes to change: when more match, the node stops before any change (printed codes are at stake)',
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
	const codes = listed.filter(nameMatcher(String(name)));
	if (codes.length > atMost) {
		throw new NodeOperationError(
			this.getNode(),
			`${codes.length} codes match, more than At Most (${atMost}); nothing was changed`,
			{ itemIndex, description: `Narrow the filters, or raise At Most to ${codes.length}.` },
		);
	}

	const written: unknown[] = [];
	const settle = async (code: IDataObject): Promise<IDataObject> => {
		const common = { id: code.id, before: restorable(code), dryRun };
		if (change.type && code.type !== change.type.value) {
			const skipped = `a ${String(code.type)} code: the payload set here is for ${change.type.value} codes`;
			return { ...common, skipped, written: false };
		}
		const wanted = { type: change.type, body: patchBody(parameters, change, code), whole: true };
		const paused = change.body.paused as boolean | undefined;
		const { body, fields, unknown } = differences(code, { ...wanted, paused });
		const changes = [...fields, ...unknown];
		if (dryRun || !changes.length) {
			return { ...common, changes, after: restorable({ ...code, ...body }), written: false };
		}
		const after = restorable(await changedRecord(run, String(code.id), body, itemIndex));
		written.push(code.id);
		return { ...common, changes, after, written: true };
	};

	// As many at once as the rate model lets leave; each code once, started in list order.
	const results: IDataObject[] = new Array(codes.length);
	const queue = codes.entries();
	let failure: string | undefined;
	const worker = async () => {
		for (const [index, code] of queue) {
			if (failure) return;
			results[index] = await settle(code).catch((error: Error) => {
				if (isGone(error)) return { id: code.id, skipped: 'deleted since it was listed', dryRun };
				const { message, description } = error as NodeOperationError;
				if (!this.continueOnFail()) failure ??= `Code ${String(code.id)}: ${message}`;
				const said = description ? { description } : {};
				return { id: code.id, error: message, ...said, before: restorable(code) };
			});
		}
	};
	await Promise.all(Array.from({ length: run.client.rate.limit }, worker));
	if (failure) {
		throw new NodeOperationError(this.getNode(), failure, {
			itemIndex,
			description: `Changed before it stopped: ${written.join(', ') || 'none'}. Run it again to change what still differs.`,
		});
	}
	return toItems(results);
};
