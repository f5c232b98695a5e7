import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import { apiRequest, unwrap } from '../../api';

/**
 * The code as a PATCH left it. The reference does not show the success status of a change: a
 * service may answer the record, or 204 with no body; the record is then read back.
 */
export async function changedRecord(
	ctx: IExecuteFunctions,
	id: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> {
	const record = unwrap(await apiRequest(ctx, 'PATCH', `/qr-codes/${id}`, { body, itemIndex }));
	if (record.id !== undefined) return record;
	return unwrap(await apiRequest(ctx, 'GET', `/qr-codes/${id}`, { itemIndex }));
}
