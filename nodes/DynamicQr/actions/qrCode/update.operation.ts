import type { INodeProperties } from 'n8n-workflow';

import { QR_TYPES } from '../../qrTypes';
import { qrCodeLocator } from '../locators';
import { collection, showOnlyFor } from '../display';
import { payloadProperties } from '../payload/payloadProperties';
import { changedRecord, patchBody, readChange } from './changedRecord';
import { type Operation, toItems } from '../run';

const properties: INodeProperties[] = [
	{ ...qrCodeLocator, displayOptions: { show: { operation: ['update'] } } },
	collection('Update Fields', 'updateFields', 'Add Field', [
		{
			displayName: 'Design (JSON)',
			name: 'design',
			type: 'json',
			default: '{}',
			description:
				'Design settings to change, as a JSON object, sent as given. Whether the keys it leaves out (a logo_upload_id) are kept or dropped is up to the service: give every key the code keeps. The service shows a design only in answers to a create or a change, so Update Many does not compare it and its way back (`before`) does not restore it.',
		},
		{
			displayName: 'Name',
			name: 'name',
			type: 'string',
			default: '',
			placeholder: 'e.g. Spring Flyer 2030',
			description: 'New name of the code in the dashboard',
		},
		{
			displayName: 'Paused',
			name: 'paused',
			type: 'boolean',
			default: false,
			description: 'Whether the code is paused (its short link shows a paused page)',
		},
	]),
	...payloadProperties(QR_TYPES, 'update'),
];

/** Update Many changes codes with Update's fields: all but the locator are shown for both. */
export const description = showOnlyFor('qrCode', ['update', 'updateMany'], properties);

export const execute: Operation = async function (itemIndex, run, parameters) {
	const id = parameters.recordId('qrCodeId');
	const change = readChange(parameters);
	const current =
		change.type && !change.replace
			? await run.client.getRecord(`/qr-codes/${id}`, itemIndex)
			: undefined;
	return toItems(await changedRecord(run, id, patchBody(parameters, change, current), itemIndex));
};
