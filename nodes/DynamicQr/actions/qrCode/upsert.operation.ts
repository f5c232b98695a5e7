import type {
	IDataObject,
	IExecuteFunctions,
	INodeExecutionData,
	INodeProperties,
} from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { apiRequest, ID_PATTERN, ID_RULE, unwrap } from '../../api';
import { showOnlyFor } from '../shared/display';
import { changedRecord } from './changedRecord';
import type { CodeIndex } from './codeIndex';
import { codeIndex, oneAtATime } from './codeIndex';
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
	},
	{
		displayName: 'QR Code ID to Match',
		name: 'matchQrCodeId',
		type: 'string',
		default: '',
		required: true,
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
	find: (index: CodeIndex) => Promise<IDataObject | undefined>;
}

/** How the item finds its code, checked before any request. */
function readMatch(ctx: IExecuteFunctions, itemIndex: number, name: string): Match {
	if (ctx.getNodeParameter('matchBy', itemIndex, 'name') === 'name') {
		if (!name.trim()) {
			throw new NodeOperationError(ctx.getNode(), `Name is empty in item ${itemIndex}`, {
				itemIndex,
				description:
					'Codes are matched by Name: map the column that holds each code’s name. Nothing was sent to the API.',
			});
		}
		return {
			key: `name:${name}`,
			find: async (index) => {
				const found = index.named(name);
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
	const id = String(ctx.getNodeParameter('matchQrCodeId', itemIndex, '') ?? '').trim();
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
		find: async (index) => index.withId(id) ?? (await readCode(ctx, id, itemIndex)),
	};
}

/**
 * A code missing from the run's list: made since the list was read, or left out of it (the
 * reference does not say whether lists show archived codes). The API's 404 says when there is
 * none.
 */
const readCode = async (ctx: IExecuteFunctions, id: string, itemIndex: number) =>
	unwrap(await apiRequest(ctx, 'GET', `/qr-codes/${id}`, { itemIndex }));

/** Paused from Additional Fields: undefined unless the user added it; an expression may give text. */
function readPaused(ctx: IExecuteFunctions, itemIndex: number): boolean | undefined {
	const { paused } = ctx.getNodeParameter('additionalFields', itemIndex, {}) as IDataObject;
	if (paused === undefined || paused === null || paused === '') return undefined;
	const value = String(paused).trim().toLowerCase();
	if (value === 'true' || value === 'false') return value === 'true';
	throw new NodeOperationError(
		ctx.getNode(),
		`Invalid "Paused" in item ${itemIndex}: "${String(paused)}" is neither true nor false`,
		{ itemIndex, description: 'Give true, false, or remove Paused to keep each code as it is.' },
	);
}

/**
 * Finds the item's code in the run's list (read once per run) and creates it when there is none,
 * changes only what differs when there is one, and writes nothing when nothing differs.
 */
export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	const request = readCreateRequest(this, itemIndex);
	const wanted: WantedCode = { ...request, paused: readPaused(this, itemIndex) };
	const match = readMatch(this, itemIndex, String(request.body.name));

	return await oneAtATime(this, match.key, async () => {
		const index = await codeIndex(this, itemIndex);
		const found = await match.find(index);
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
		if (result !== 'unchanged') index.put(record);
		return [{ json: { ...record, [RESULT_KEY]: result } }];
	});
}
