import type { IDataObject, INodeProperties } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';
import { qrCodeLocator } from '../locators';
import { toItems } from '../outputItems';
import { showOnlyFor } from '../display';
import { payloadProperties } from '../payload/payloadProperties';
import { getQrType, readPayload } from '../payload/read';
import { validatePayload } from '../payload/validate';
import { changedRecord } from './changedRecord';
import type { Operation } from '../run';

const properties: INodeProperties[] = [
	qrCodeLocator,
	{
		displayName: 'Update Fields',
		name: 'updateFields',
		type: 'collection',
		placeholder: 'Add Field',
		default: {},
		options: [
			{
				displayName: 'Design (JSON)',
				name: 'design',
				type: 'json',
				default: '{}',
				description: 'Design settings to change, as a JSON object',
			},
			{
				displayName: 'Name',
				name: 'name',
				type: 'string',
				default: '',
				placeholder: 'e.g. Spring Flyer 2030',
				description: 'New name of the code in the dashboard',
			},
		],
	},
	...payloadProperties(QR_TYPES, 'update'),
];

export const description = showOnlyFor('qrCode', 'update', properties);

/** PATCH changes only what is sent: the body holds only what the user set. */
export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const updateFields = parameters.collection('updateFields');
	const body: IDataObject = {};
	if (updateFields.name) body.name = updateFields.name;
	if (updateFields.design !== undefined) {
		body.design = parameters.jsonObjectIn('updateFields', 'design', updateFields.design);
	}

	if (parameters.option('payloadInput') !== 'none') {
		const type = getQrType(parameters);
		const changes = readPayload(parameters, type);
		// A partial payload is checked for formats now, the merged one for required fields below.
		validatePayload(parameters, type, changes, 'update');
		let payload = changes;
		if (!parameters.boolean('replacePayload')) {
			const current = await run.client.getRecord(`/qr-codes/${id}`, itemIndex);
			// Fields of another type make no sense in this one: a type change replaces the payload.
			if (current.type === type.value) {
				payload = { ...((current.payload as IDataObject) ?? {}), ...changes };
			}
		}
		validatePayload(parameters, type, payload, 'create');
		body.type = type.value;
		body.payload = payload;
	}

	if (!Object.keys(body).length) {
		throw new NodeOperationError(this.getNode(), `Nothing to update in item ${itemIndex}`, {
			itemIndex,
			description: 'Add a field under Update Fields or choose a Payload Input.',
		});
	}
	return toItems(await changedRecord(run, id, body, itemIndex));
};
