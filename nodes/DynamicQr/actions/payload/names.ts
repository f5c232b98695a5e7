/** From this version the mixed-type fields are one collection, and Payload (JSON) is required. */
export const TYPED_PAYLOAD_SINCE = 2;

/** "Fields for Mixed Types" from version 2: one collection, with an option per field name. */
export const MIXED_PAYLOAD_COLLECTION = 'mixedPayload';

/**
 * "Fields for the Type", one parameter per type and field (names saved workflows store), e.g.
 * `payload_link_bio_links`. Type values and field names contain "_": look a name up, never split it.
 */
export const fieldParameterName = (typeValue: string, fieldName: string) =>
	`payload_${typeValue}_${fieldName}`;

/** "Fields for Mixed Types" in version 1: one parameter per field name, e.g. `mixedPayload_url`. */
export const mixedParameterName = (fieldName: string) => `mixedPayload_${fieldName}`;
