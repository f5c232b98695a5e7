import type { INodeProperties } from 'n8n-workflow';

import { notice } from '../display';
import type { Operation, RecordKey } from '../run';
import { description as createProperties, createCode, readCreateRequest } from './create.operation';
import { differences } from './differences';
import { type CodeIndex, codeIndex, creating, readMatch } from './createOrUpdate/match';
import { changedRecord } from './changedRecord';

/** Record fields are snake_case, so a camelCase output key cannot meet one of them. */
const RESULT_KEY = 'createOrUpdate';

/** Name, Type, the payload and Additional Fields are Create's, shown here too. */
export const description: INodeProperties[] = [
	{
		displayName: 'Match By',
		name: 'matchBy',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Name',
				value: 'name',
				description:
					'The code whose name is exactly the Name below (case and spaces count); several codes of that name fail the item',
			},
			{
				name: 'QR Code ID in the Data',
				value: 'id',
				description:
					'The code whose ID your data holds, e.g. a sheet column; an item without an ID creates a code',
			},
		],
		default: 'name',
		description: 'How to find the existing code of each item',
		builderHint: {
			propertyHint:
				"name when every code's name is unique, such as one per sheet row; id when the data keeps each code's ID from an earlier run.",
		},
	},
	{
		displayName: 'QR Code ID to Match',
		name: 'matchQrCodeId',
		type: 'string',
		default: '',
		placeholder: 'e.g. {{ $json.qr_code_id }}',
		description:
			'The ID of the code to update, from your data. Empty: a new code is created (store its ID with the row to update it next time).',
		displayOptions: { show: { matchBy: ['id'] } },
	},
	notice(
		'upsertNotice',
		'A code found is changed only where it differs (Name, Type, payload fields set here, Design, Paused); Folder, Tags, Domain and Idempotency Key apply when a code is created',
	),
];

export const reads = [...createProperties, ...description];

/** Items that match one code (one name, or one ID) run one after another and see each other's changes. */
export const recordKey: RecordKey = (_itemIndex, run, parameters) =>
	readMatch(run, parameters, parameters.string('name')).key;

/** Creates the item's code when the run's list has none, else changes only what differs. */
export const execute: Operation = async function (itemIndex, run, parameters) {
	const request = readCreateRequest(parameters);
	const match = readMatch(run, parameters, String(request.body.name));

	// An item without an ID to match can only create: it needs no list.
	let index: CodeIndex | undefined;
	const found = await match.find(async () => (index ??= await codeIndex(run, itemIndex)));
	if (found) {
		const changes = differences(found, request);
		if (!changes.fields.length) return [{ json: { ...found, [RESULT_KEY]: 'unchanged' } }];
		const record = await changedRecord(run, String(found.id), changes.body, itemIndex);
		index?.set(String(record.id), record);
		return [{ json: { ...record, [RESULT_KEY]: 'updated' } }];
	}
	let record = await creating(run, () => createCode(run, request, itemIndex));
	// A create has no paused flag: a code asked for paused is paused right after.
	const { paused } = request;
	if (paused !== undefined && Boolean(record.paused) !== paused) {
		record = await changedRecord(run, String(record.id), { paused }, itemIndex);
	}
	index?.set(String(record.id), record);
	return [{ json: { ...record, [RESULT_KEY]: 'created' } }];
};
