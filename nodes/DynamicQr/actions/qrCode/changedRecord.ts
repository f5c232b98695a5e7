import type { IDataObject } from 'n8n-workflow';

import { unwrap } from '../../api';
import type { ActionRun } from '../run';

/**
 * The code as a PATCH left it. The reference does not show the success status of a change: a
 * service may answer the record, or 204 with no body; the record is then read back.
 */
export async function changedRecord(
	{ client }: ActionRun,
	id: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const record = unwrap(await client.request('PATCH', `/qr-codes/${id}`, { body, itemIndex }));
	if (record.id !== undefined) return record;
	return await client.getRecord(`/qr-codes/${id}`, itemIndex);
}
