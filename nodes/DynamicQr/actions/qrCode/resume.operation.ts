import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { qrCodeLocator } from '../shared/locators';
import { showOnlyFor } from '../shared/display';
import { setPaused } from './setPaused';

export const description = showOnlyFor('qrCode', 'resume', [qrCodeLocator]);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
): Promise<INodeExecutionData[]> {
	return await setPaused(this, itemIndex, description, false);
}
