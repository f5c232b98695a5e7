import type { QrType, QrTypeField } from '../../qrTypes';
import { QR_TYPES } from '../../qrTypes';

/**
 * The parameter names of the payload fields, which saved workflows store. Type values and field
 * names both contain "_" (`link_bio`, `place_id`), so a name is split back by matching the
 * table, never by splitting on "_".
 */
const FIELD_PREFIX = 'payload_';
const MIXED_PREFIX = 'mixedPayload_';

/**
 * From this version of the node the payload is given in typed fields only: the fields for mixed
 * types are the options of one collection, and Payload (JSON) is required when chosen.
 */
export const TYPED_PAYLOAD_SINCE = 2;

/** "Fields for Mixed Types" from version 2: one collection, with an option per field name. */
export const MIXED_PAYLOAD_COLLECTION = 'mixedPayload';

/** "Fields for the Type": one parameter per type and field, e.g. `payload_link_bio_links`. */
export const fieldParameterName = (typeValue: string, fieldName: string) =>
	`${FIELD_PREFIX}${typeValue}_${fieldName}`;

/** "Fields for Mixed Types" in version 1: one parameter per field name, e.g. `mixedPayload_url`. */
export const mixedParameterName = (fieldName: string) => `${MIXED_PREFIX}${fieldName}`;

/** The type and field a "Fields for the Type" parameter belongs to. */
export function parseFieldParameterName(
	name: string,
): { type: QrType; field: QrTypeField } | undefined {
	for (const type of QR_TYPES) {
		for (const field of type.fields) {
			if (fieldParameterName(type.value, field.name) === name) return { type, field };
		}
	}
	return undefined;
}
