import { qrCodeLocator } from '../locators';
import { toItems } from '../outputItems';
import type { Operation } from '../run';
import { changedRecord } from './changedRecord';

/** Pause and Resume differ only in the value of `paused`. */
export function setPaused(paused: boolean) {
	const execute: Operation = async function (itemIndex, run, parameters) {
		const id = parameters.recordId('qrCodeId');
		return toItems(await changedRecord(run, id, { paused }, itemIndex));
	};
	return { description: [qrCodeLocator], execute };
}
