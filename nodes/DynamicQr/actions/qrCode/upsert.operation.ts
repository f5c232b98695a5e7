import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ParameterReader } from '../../api';
import { apiRequest, ID_PATTERN, ID_RULE, unwrap } from '../../api';
import { showOnlyFor } from '../shared/display';
import { operationParameters } from '../shared/parameters';
import { changedRecord } from './changedRecord';
import type { CodeIndex } from './codeIndex';
import { codeIndex, oneAtATime } from './codeIndex';
import { description as createProperties } from './create.operation';
import { createCode, readCreateRequest } from './createRequest';
import type { WantedCode } from './differences';
import { differences } from './differences';

/**
 * The output key saying what happened to the item's code. Record fields are snake_case (the
 * reference's and any a service adds), so a camelCase key cannot meet one of them.
 */
const RESULT_KEY = 'createOrUpdate';

/**
 * Create or Update's own fields. Name, Type, the payload and Additional Fields are Create's,
 * shown for this operation too (create.operation.ts).
 */
const properties: INodeProperties[] = [
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
	{
		displayName:
			'A code found is changed only where it differs (Name, Type, payload fields set here, Design, Paused); Folder, Tags, Domain and Idempotency Key apply when a code is created',
		name: 'upsertNotice',
		type: 'notice',
		default: '',
	},
];

export const description = showOnlyFor('qrCode', 'upsert', properties);

interface Match {
	/** Serialises the items of one code; none for an item that can only create. */
	key?: string;
	/** `index` reads the run's list of codes (once per run) when the match needs it. */
	find: (index: () => Promise<CodeIndex>) => Promise<IDataObject | undefined>;
}

/** How the item finds its code, checked before any request. */
function readMatch(
	ctx: IExecuteFunctions,
	parameters: ParameterReader,
	itemIndex: number,
	name: string,
): Match {
	if (parameters.option('matchBy') === 'name') {
		return {
			key: `name:${name}`,
			find: async (index) => {
				const found = (await index()).named(name);
				if (found.length > 1) {
					throw new NodeOperationError(
						ctx.getNode(),
						`${found.length} QR codes are named "${name}" (item ${itemIndex}): ${found.map((code) => code.id).join(', ')}`,
						{
							itemIndex,
							description:
								'Give those codes distinct names in the dashboard (or delete the extra ones), or match by QR Code ID instead. Nothing was changed for this item.',
						},
					);
				}
				return found[0];
			},
		};
	}
	// Empty means the row has no code yet: it creates one.
	const id = parameters.string('matchQrCodeId', { required: false }).trim();
	if (!id) return { find: async () => undefined };
	if (!new RegExp(ID_PATTERN).test(id)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`Invalid QR Code ID to Match "${id}" in item ${itemIndex}: an ID has ${ID_RULE}`,
			{
				itemIndex,
				description:
					'Map the column that holds the ID of the code made for this row, or leave it empty to create a code. Nothing was sent to the API.',
			},
		);
	}
	return {
		key: `id:${id}`,
		find: async (index) => (await index()).withId(id) ?? (await readCode(ctx, id, itemIndex)),
	};
}

/**
 * A code missing from the run's list: made since the list was read, or left out of it (the
 * reference does not say whether lists show archived codes). The API's 404 says when there is
 * none.
 */
const readCode = async (ctx: IExecuteFunctions, id: string, itemIndex: number) =>
	unwrap(await apiRequest(ctx, 'GET', `/qr-codes/${id}`, { itemIndex }));

/**
 * Finds the item's code in the run's list (read once per run) and creates it when there is none,
 * changes only what differs when there is one, and writes nothing when nothing differs.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const parameters = operationParameters(this, itemIndex, [...createProperties, ...description]);
	const request = readCreateRequest(parameters);
	// Paused is left out unless the user added it: then each code is kept as it is.
	const paused = request.additional.paused as boolean | undefined;
	const wanted: WantedCode = { ...request, paused };
	const match = readMatch(this, parameters, itemIndex, String(request.body.name));

	return await oneAtATime(this, match.key, async () => {
		// An item without an ID to match can only create: it needs no list.
		let index: CodeIndex | undefined;
		const found = await match.find(async () => (index ??= await codeIndex(this, itemIndex)));
		let record: IDataObject;
		let result: 'created' | 'updated' | 'unchanged';
		if (!found) {
			record = unwrap(await createCode(this, request, itemIndex));
			// A create has no paused flag: a code asked for paused is paused right after.
			if (wanted.paused !== undefined && Boolean(record.paused) !== wanted.paused) {
				record = await changedRecord(this, String(record.id), { paused: wanted.paused }, itemIndex);
			}
			result = 'created';
		} else {
			const changes = differences(found, wanted);
			record = changes.fields.length
				? await changedRecord(this, String(found.id), changes.body, itemIndex)
				: found;
			result = changes.fields.length ? 'updated' : 'unchanged';
		}
		if (result !== 'unchanged') index?.put(record);
		return [{ json: { ...record, [RESULT_KEY]: result } }];
	});
}
