import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { ID_PATTERN, ID_RULE } from '../../../api';
import type { ParameterReader } from '../../../shared/parameters';
import type { ActionRun } from '../../run';

export interface Match {
	/** Serialises the items of one code; none for an item that can only create. */
	key?: string;
	/** `index` reads the run's list of codes (once per run) when the match needs it. */
	find: (index: () => Promise<CodeIndex>) => Promise<IDataObject | undefined>;
}

/** How an item of Create or Update finds its code, checked before any request. */
export function readMatch(run: ActionRun, parameters: ParameterReader, name: string): Match {
	const { itemIndex } = parameters;
	const fail = (message: string, description: string) =>
		new NodeOperationError(run.ctx.getNode(), message, { itemIndex, description });
	if (parameters.option('matchBy') === 'name') {
		return {
			key: `name:${name}`,
			find: async (index) => {
				// Exactly `name`: case and spaces count.
				const codes = [...(await index()).values()];
				const found = codes.filter((code) => String(code.name) === name);
				if (found.length > 1) {
					throw fail(
						`${found.length} QR codes are named "${name}" (item ${itemIndex}): ${found.map((code) => code.id).join(', ')}`,
						'Give those codes distinct names in the dashboard (or delete the extra ones), or match by QR Code ID instead. Nothing was changed for this item.',
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
		throw fail(
			`Invalid QR Code ID to Match "${id}" in item ${itemIndex}: an ID has ${ID_RULE}`,
			'Map the column that holds the ID of the code made for this row, or leave it empty to create a code. Nothing was sent to the API.',
		);
	}
	return {
		key: `id:${id}`,
		// Missing from the run's list: made since, or left out (archived?); a 404 says there is none.
		find: async (index) =>
			(await index()).get(id) ?? (await run.client.getRecord(`/qr-codes/${id}`, itemIndex)),
	};
}

/** The account's codes by id, read once per run; the run's creates and changes are put back in. */
export type CodeIndex = Map<string, IDataObject>;

/** Read once, after the run's creates under way (they change the list); a failure fails every item. */
export const codeIndex = (run: ActionRun, itemIndex: number): Promise<CodeIndex> =>
	(run.codeIndex ??= (async () => {
		await Promise.allSettled(run.creates);
		const records = await run.client.all('/qr-codes', {}, undefined, { itemIndex });
		return new Map(records.map((record) => [String(record.id), record]));
	})());

/** A create: after the run's read of the list when one started, else one that read waits for. */
export async function creating<T>(run: ActionRun, create: () => Promise<T>): Promise<T> {
	await run.codeIndex?.catch(() => undefined);
	const sent = create();
	run.creates.add(sent);
	return await sent.finally(() => run.creates.delete(sent));
}
