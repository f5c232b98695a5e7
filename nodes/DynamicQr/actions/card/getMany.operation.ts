import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { apiRequestAllItems } from '../../api';
import { readLimit, returnAllOrLimit } from '../shared/listing';
import { toItems } from '../shared/output';
import { showOnlyFor } from '../shared/display';
import { operationParameters } from '../shared/parameters';

export const description = showOnlyFor('card', 'getAll', returnAllOrLimit);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return toItems(
		await apiRequestAllItems(
			this,
			'/cards',
			{},
			readLimit(operationParameters(this, itemIndex, description)),
			{ itemIndex },
		),
	);
}
