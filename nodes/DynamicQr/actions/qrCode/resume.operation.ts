import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';
import { updateDisplayOptions } from 'n8n-workflow';

import { qrCodeLocator } from '../common';
import { setPaused } from './setPaused';

export const description = updateDisplayOptions(
	{ show: { resource: ['qrCode'], operation: ['resume'] } },
	[qrCodeLocator],
);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await setPaused(this, itemIndex, false);
}
