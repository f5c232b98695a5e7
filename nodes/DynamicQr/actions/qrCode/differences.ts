import type { IDataObject } from 'n8n-workflow';

import { asObject, isObject, ownValue } from '../../api';
import type { QrType } from '../../qrTypes';
import { FORMATS, sameText } from '../payload/formats';

/**
 * What an item wants a code to be: a create's body (Update Many's: what it changes), Paused; with
 * `whole`, the payload is the whole payload: a field the code has beyond it differs.
 */
export type WantedCode = { type?: QrType; body: IDataObject; paused?: boolean; whole?: boolean };

/** JSON with every object's keys in order: equal values (from JSON) give the same text. */
const canonical = (value: unknown) =>
	JSON.stringify(value, (_key, entry: unknown) =>
		isObject(entry)
			? Object.fromEntries(Object.entries(entry).sort(([a], [b]) => (a < b ? -1 : 1)))
			: entry,
	);

function payloadDiffers({ type, body, whole }: WantedCode, current: IDataObject) {
	const wanted = body.payload as IDataObject;
	if (whole && Object.keys(current).some((key) => ownValue(wanted, key) === undefined)) return true;
	return Object.entries(wanted).some(([key, value]) => {
		const format = type?.fields.find((field) => field.name === key)?.format;
		const same = (format && FORMATS[format].same) || sameText;
		return !same(value, ownValue(current, key));
	});
}

/**
 * What to PATCH so that `record` becomes what the item wants, and the fields that differ; only the
 * payload fields and design keys the user set are compared. The reference shows no design nor
 * paused flag in a record: one the record lacks is sent with any other change, never alone.
 */
export function differences(record: IDataObject, wanted: WantedCode) {
	const body: IDataObject = {};
	const { name, type, payload, design } = wanted.body;
	if (name !== undefined && name !== record.name) body.name = name;
	const currentPayload = asObject(record.payload) ?? {};
	if (type !== undefined && type !== record.type) {
		// A new type's fields replace the old payload.
		body.type = type;
		body.payload = payload;
	} else if (wanted.type && payloadDiffers(wanted, currentPayload)) {
		// PATCH replaces the payload it is sent: the fields left empty keep the code's values.
		body.payload = wanted.whole ? payload : { ...currentPayload, ...(payload as IDataObject) };
	}

	const unknown: IDataObject = {};
	if (design !== undefined) {
		const currentDesign = asObject(record.design);
		const merged = { ...currentDesign, ...(design as IDataObject) };
		if (!currentDesign) unknown.design = design;
		else if (canonical(merged) !== canonical(currentDesign)) body.design = design;
	}
	if (wanted.paused !== undefined) {
		if (typeof record.paused !== 'boolean') unknown.paused = wanted.paused;
		else if (record.paused !== wanted.paused) body.paused = wanted.paused;
	}

	// Update Many sends the unknown ones alone too: it cannot tell that a code holds them already.
	return {
		body: { ...body, ...unknown },
		fields: Object.keys(body),
		unknown: Object.keys(unknown),
	};
}
