import { qrCodeLocator } from '../locators';
import { showOnlyFor } from '../display';
import { toItems } from '../outputItems';
import type { Operation } from '../run';
import { changedRecord } from './changedRecord';

/** Pause and Resume differ only in the value of `paused`. */
export function setPaused(operation: string, paused: boolean) {
	const description = showOnlyFor('qrCode', operation, [qrCodeLocator]);
	const execute: Operation = async function (itemIndex, run, parameters) {
		const id = parameters.recordId('qrCodeId');
		return toItems(await changedRecord(run, id, { paused }, itemIndex));
	};
	return { description, execute };
}
