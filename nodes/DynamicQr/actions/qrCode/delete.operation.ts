import { qrCodeLocator } from '../locators';
import { notice } from '../display';
import type { Operation } from '../run';

export const description = [
	notice(
		'deleteNotice',
		'Deleting a code makes every printed copy stop working: its short link then shows a not-found page. Use Pause instead to switch it off for a while.',
	),
	qrCodeLocator,
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	await run.client.request('DELETE', `/qr-codes/${id}`, { itemIndex });
	return [{ json: { deleted: true } }];
};
