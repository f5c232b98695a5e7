import type { IDataObject, IExecuteFunctions } from 'n8n-workflow';

import type { BinaryAnswer } from '../../api';
import { collection } from '../display';
import { qrCodeLocator } from '../locators';
import { imageProperties, readImageRequest } from '../image';
import { operationParameters } from '../operationParameters';
import type { ActionRun, Operation } from '../run';
import { distinctFileNames, fileNameOption } from './fileNames';

export const description = [
	qrCodeLocator,
	...imageProperties,
	collection('Options', 'options', 'Add Option', [
		{
			displayName: 'File Name',
			name: 'fileName',
			type: 'string',
			default: '',
			placeholder: 'e.g. {{ $json.sku }}',
			description:
				"Name of the file; the format gives the extension. Characters a file system refuses become _; a name already given in this run gets (2), (3) … before its extension, in input order. Not set or empty: qr- and the code's ID.",
		},
		{
			displayName: 'Read the Code When Needed',
			name: 'readCode',
			type: 'boolean',
			default: true,
			description:
				'Whether to read the code (one more request) for its name and short_url when the input item is not its record (as after Create, Create or Update, Get)',
		},
	]),
];

/** Every item's file name, read at the run's first need in input order (items finish in any). */
const runFileNames = (ctx: IExecuteFunctions, run: ActionRun) =>
	(run.fileNames ??= distinctFileNames(
		ctx.getInputData().map((_item, itemIndex) => {
			const parameters = operationParameters(ctx, itemIndex, description);
			try {
				const name = fileNameOption(parameters);
				return name === undefined ? undefined : [name, parameters.option('format')];
			} catch {
				return undefined; // the item reports it in its turn
			}
		}),
	));

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const request = readImageRequest(parameters);
	const named = fileNameOption(parameters) !== undefined;
	const fileName = (named && runFileNames(this, run)[itemIndex]) || `qr-${id}`;

	// Name and short link from the run's item when it is this code's record, else read.
	const input: IDataObject = this.getInputData()[itemIndex]?.json ?? {};
	const isRecord = input.id === id && typeof input.short_url === 'string';
	const read = !isRecord && parameters.collection('options').readCode !== false;
	const code = read ? await run.client.getRecord(`/qr-codes/${id}`, itemIndex) : input;
	const json = isRecord || read ? { id, name: code.name, short_url: code.short_url } : { id };
	const image = await run.client.request<BinaryAnswer>('GET', `/qr-codes/${id}/image`, {
		qs: request.query,
		binary: true,
		itemIndex,
	});
	return await request.items(this, image, fileName, json);
};
