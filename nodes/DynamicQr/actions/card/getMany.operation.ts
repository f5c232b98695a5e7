import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequestAllItems } from '../../transport';
import { readLimit, returnAllOrLimit, toItems } from '../common';
import { showOnlyFor } from '../display';

export const description = showOnlyFor('card', 'getAll', returnAllOrLimit);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(
		await apiRequestAllItems(this, '/cards', {}, readLimit(this, itemIndex), { itemIndex }),
	);
}
