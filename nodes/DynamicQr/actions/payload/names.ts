import { QR_TYPES } from '../../qrTypes';

/**
 * From this version of the node the payload is given in typed fields only: the fields for mixed
 * types are the options of one collection, and Payload (JSON) is required when chosen.
 */
export const TYPED_PAYLOAD_SINCE = 2;

/** "Fields for Mixed Types" from version 2: one collection, with an option per field name. */
export const MIXED_PAYLOAD_COLLECTION = 'mixedPayload';

/**
 * The parameter names of the payload fields, which saved workflows store. Type values and field
 * names both contain "_" (`link_bio`, `place_id`), so a name is split back by matching the
 * table, never by splitting on "_". "Fields for the Type": one parameter per type and field, e.g.
 * `payload_link_bio_links`.
 */
export const fieldParameterName = (typeValue: string, fieldName: string) =>
	`payload_${typeValue}_${fieldName}`;

/** "Fields for Mixed Types" in version 1: one parameter per field name, e.g. `mixedPayload_url`. */
export const mixedParameterName = (fieldName: string) => `mixedPayload_${fieldName}`;

/** The type and field a "Fields for the Type" parameter belongs to. */
export const parseFieldParameterName = (name: string) =>
	QR_TYPES.flatMap((type) => type.fields.map((field) => ({ type, field }))).find(
		({ type, field }) => fieldParameterName(type.value, field.name) === name,
	);
