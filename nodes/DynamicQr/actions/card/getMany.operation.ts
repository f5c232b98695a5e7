import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { readLimit, returnAllOrLimit, toItems } from '../common';

export const description = updateDisplayOptions(
	{ show: { resource: ['card'], operation: ['getAll'] } },
	returnAllOrLimit,
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(
		await apiRequestAllItems(this, '/cards', {}, readLimit(this, itemIndex), { itemIndex }),
	);
}
