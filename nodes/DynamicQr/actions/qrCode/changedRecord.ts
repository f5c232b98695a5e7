import { type IDataObject, NodeOperationError } from 'n8n-workflow';

import { unwrap } from '../../api';
import type { QrType } from '../../qrTypes';
import type { ParameterReader } from '../../shared/parameters';
import { qrCodeLocator } from '../locators';
import { getQrType, readPayload, validatePayload } from '../payload/read';
import { type ActionRun, type Operation, toItems } from '../run';

/** The code as a PATCH left it (the edge reads it back where a service answers without it). */
export const changedRecord = async (
	{ client }: ActionRun,
	id: string,
	body: IDataObject,
	itemIndex: number,
): Promise<IDataObject> =>
	unwrap(await client.request('PATCH', `/qr-codes/${id}`, { body, itemIndex }));

/** Pause and Resume differ only in the value of `paused`. */
export function setPaused(paused: boolean) {
	const execute: Operation = async function (itemIndex, run, parameters) {
		const id = parameters.recordId('qrCodeId');
		return toItems(await changedRecord(run, id, { paused }, itemIndex));
	};
	return { description: [qrCodeLocator], execute };
}

/** What Update and Update Many are asked to change: Update Fields, and a payload of `type`. */
export type Change = { body: IDataObject; type?: QrType; payload?: IDataObject; replace: boolean };

/** The change as the item gives it; PATCH changes only what is sent, so only what the user set. */
export function readChange(parameters: ParameterReader): Change {
	const updateFields = parameters.collection('updateFields');
	const body: IDataObject = {};
	if (updateFields.name) body.name = updateFields.name;
	if (updateFields.design !== undefined) {
		body.design = parameters.jsonObjectIn('updateFields', 'design', updateFields.design);
	}
	if (updateFields.paused !== undefined) body.paused = updateFields.paused;
	if (parameters.option('payloadInput') === 'none') {
		if (Object.keys(body).length) return { body, replace: false };
		const { node, itemIndex } = parameters;
		throw new NodeOperationError(node, `Nothing to update in item ${itemIndex}`, {
			itemIndex,
			description: 'Add a field under Update Fields or choose a Payload Input.',
		});
	}
	const type = getQrType(parameters);
	// A partial payload is checked for formats now, the merged one for required fields in patchBody.
	const payload = readPayload(parameters, type, 'update');
	return { body, type, payload, replace: parameters.boolean('replacePayload') };
}

/** The PATCH body for a code that holds `current` (read only where a payload is merged into it). */
export function patchBody(parameters: ParameterReader, change: Change, current?: IDataObject) {
	const { body, type, replace } = change;
	if (!type) return body;
	// Fields of another type make no sense in this one: a type change replaces the payload.
	const merge = !replace && current?.type === type.value;
	const payload = merge
		? { ...(current.payload as IDataObject), ...change.payload }
		: change.payload;
	validatePayload(parameters, type, payload ?? {}, 'create');
	return { ...body, type: type.value, payload };
}
