import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { qrCodeLocator, recordKeyOf } from '../locators';
import { showOnlyFor } from '../display';
import { setPaused } from './setPaused';
import type { ActionRun } from '../run';

export const description = showOnlyFor('qrCode', 'resume', [qrCodeLocator]);

export const recordKey = recordKeyOf(qrCodeLocator);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	return await setPaused(run, itemIndex, description, false);
}
