import type { IDataObject } from 'n8n-workflow';

import { unwrap } from '../../api';
import type { ActionRun } from '../run';

/** The code as a PATCH left it (the edge reads it back where a service answers without it). */
export const changedRecord = async (
	{ client }: ActionRun,
	id: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> =>
	unwrap(await client.request('PATCH', `/qr-codes/${id}`, { body, itemIndex }));
