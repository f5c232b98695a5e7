import type { IExecuteFunctions, INodeExecutionData } from 'n8n-workflow';

import { qrCodeLocator, recordKeyOf } from '../shared/locators';
import { showOnlyFor } from '../shared/display';
import { setPaused } from './shared/setPaused';
import type { ActionRun } from '../shared/run';

export const description = showOnlyFor('qrCode', 'resume', [qrCodeLocator]);

export const recordKey = recordKeyOf(qrCodeLocator);

export async function execute(
	this: IExecuteFunctions,
	itemIndex: number,
	run: ActionRun,
): Promise<INodeExecutionData[]> {
	return await setPaused(run, itemIndex, description, false);
}
