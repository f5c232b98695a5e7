import type { IDisplayOptions, INodeProperties } from 'n8n-workflow';

import { isFieldRequired, type PayloadMode, type QrType, type QrTypeField } from '../../qrTypes';
import { typeOptions } from '../../shared/codeFilters';
import { fieldInput } from './formats';
import { notice, requiredWhen } from '../display';
import { sinceVersion } from '../versions';
import {
	fieldParameterName,
	MIXED_PAYLOAD_COLLECTION,
	TYPED_PAYLOAD_SINCE,
	mixedParameterName,
} from './names';

/** Shown for a Payload Input: in version 1, or (`typed`) from version TYPED_PAYLOAD_SINCE. */
const shownFor = (payloadInput: string, typed: boolean): IDisplayOptions => {
	const versions = typed ? sinceVersion(TYPED_PAYLOAD_SINCE) : [1];
	return { show: { payloadInput: [payloadInput], '@version': versions } };
};

/** A required field is declared twice (requiredWhen). */
function fieldProperties(type: QrType, field: QrTypeField, mode: PayloadMode): INodeProperties[] {
	const base = {
		displayName: field.label,
		name: fieldParameterName(type.value, field.name),
		description:
			mode === 'update' ? `${field.description}. Leave empty to keep it.` : field.description,
		...fieldInput(field),
	} as INodeProperties;
	const fields = { payloadInput: ['fields'] };
	return isFieldRequired(type, field, mode)
		? requiredWhen('type', type.value, base, fields)
		: [{ ...base, displayOptions: { show: { ...fields, type: [type.value] } } }];
}

/**
 * "Fields for Mixed Types": every payload key once, never required. Version 1 has a parameter per
 * key; from version 2 they are options of one collection, so only the keys the data has show.
 */
function mixedFieldProperties(types: QrType[], mode: PayloadMode): INodeProperties[] {
	// Each key as its first type declares it, and the types using it: "URL (required), Event".
	const keys = new Map<string, { field: QrTypeField; users: string[] }>();
	for (const type of types) {
		for (const field of type.fields) {
			const key = keys.get(field.name) ?? { field, users: [] };
			key.users.push(type.label + (isFieldRequired(type, field, mode) ? ' (required)' : ''));
			keys.set(field.name, key);
		}
	}
	const fields: INodeProperties[] = [...keys.values()].map(({ field, users }) => ({
		displayName: field.label,
		name: field.name,
		description: `payload.${field.name}, sent for items of type ${users.join(', ')}${
			field.format === 'links' ? '. A JSON list of {"title", "url"}.' : ''
		}`,
		...(field.format === 'links' ? { type: 'json' as const, default: '' } : fieldInput(field)),
	}));
	return [
		...fields.map((field) => ({
			...field,
			name: mixedParameterName(field.name),
			displayOptions: shownFor('mixed', false),
		})),
		{
			displayName: 'Payload Fields',
			name: MIXED_PAYLOAD_COLLECTION,
			type: 'collection',
			placeholder: 'Add Payload Field',
			default: {},
			description:
				'The payload fields the items may need, each mapped to your data; each item sends the ones its own type uses',
			options: [...fields].sort((a, b) => a.displayName.localeCompare(b.displayName)),
			displayOptions: shownFor('mixed', true),
		},
	];
}

/** Type, Payload Input and every way of filling the payload, from the table in qrTypes.ts. */
export function payloadProperties(types: QrType[], mode: PayloadMode): INodeProperties[] {
	const update = mode === 'update';
	const proTypes = types.filter((type) => type.plan === 'pro').map((type) => type.value);
	const changesPayload = ['fields', 'mixed', 'json'];
	const firstInput = update ? 'none' : 'fields';
	const payloadInput: INodeProperties = {
		displayName: 'Payload Input',
		name: 'payloadInput',
		type: 'options',
		noDataExpression: true,
		builderHint: {
			propertyHint:
				(update
					? 'none keeps the current type and payload, e.g. to rename a code or change its design. '
					: '') +
				'fields when every item makes the same type of code; mixed when the type comes from the data, such as a sheet column; json when an earlier node already holds the payload object.',
		},
		description:
			'The payload is what the code holds, such as its URL, phone number or contact details. Choose how to give it: as the fields of the chosen Type, as fields for items of different types, or as one JSON object.',
		options: [
			{
				name: 'Keep Current Payload',
				value: 'none',
				description: 'Change neither the type nor the payload',
			},
			{
				name: 'Fields for the Type',
				value: 'fields',
				description: 'Fill in the fields of the type chosen in Type',
			},
			{
				name: 'Fields for Mixed Types',
				value: 'mixed',
				description:
					'Every payload field once, by name, for a Type taken from the data: each item sends the fields its own type uses',
			},
			{ name: 'JSON', value: 'json', description: 'Write the whole payload object as JSON' },
		].filter(({ value }) => update || value !== 'none'),
		default: firstInput,
	};
	const usual =
		'url (a link to a web page) is the usual choice; the other types have payload fields of their own';
	const typeHint = update
		? "Keep the code's current type unless the user asks to change what the code does; another type replaces the payload."
		: mode === 'static' || !proTypes.length
			? `${usual}.`
			: `${usual}. ${proTypes.join(', ')} need a Pro plan; on other plans the API refuses them.`;
	const type: INodeProperties = {
		displayName: 'Type',
		name: 'type',
		type: 'options',
		required: true,
		options: typeOptions(types),
		default: 'url',
		builderHint: { propertyHint: typeHint },
		description:
			(update
				? "The code's current type, or another type to change it to (its payload is then replaced); Update Many changes the payload of codes of this type only"
				: 'What the code does when scanned; it decides the payload fields') +
			'. For a type taken from the data, use an expression with Payload Input "Fields for Mixed Types" or "JSON".',
		...(update ? { displayOptions: { show: { payloadInput: changesPayload } } } : {}),
	};
	// Creating starts from the type; updating starts from whether the payload changes at all.
	const properties = update ? [payloadInput, type] : [type, payloadInput];
	if (proTypes.length && mode !== 'static') {
		properties.push({
			...notice(
				'proTypeNotice',
				'This type needs a plan with smart redirects (Pro). On other plans the API answers 422.',
			),
			displayOptions: { show: { payloadInput: changesPayload, type: proTypes } },
		});
	}
	const payloadJson: INodeProperties = {
		displayName: 'Payload (JSON)',
		name: 'payloadJson',
		type: 'json',
		default: '{\n  "url": "https://example.com"\n}',
		description: update
			? 'Payload fields to change, as a JSON object; merged into the current payload unless Replace Payload is on'
			: "The payload object with the type's fields, as JSON",
	};
	// Chosen as the payload, it is the payload: required from version 2 (version 1 reads empty as {}).
	properties.push(
		{ ...payloadJson, displayOptions: shownFor('json', false) },
		{ ...payloadJson, required: true, displayOptions: shownFor('json', true) },
		...types.flatMap((type) => type.fields.flatMap((field) => fieldProperties(type, field, mode))),
		...mixedFieldProperties(types, mode),
	);
	if (update) {
		properties.push({
			displayName: 'Replace Payload',
			name: 'replacePayload',
			type: 'boolean',
			default: false,
			description:
				'Whether to replace the whole payload with the fields set here instead of merging them into the current payload',
			displayOptions: { show: { payloadInput: changesPayload } },
		});
	}
	return properties;
}
