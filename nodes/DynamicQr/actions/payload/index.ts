/**
 * Builds, reads and checks the payload fields of Create, Update and Generate, all from the one
 * table in qrTypes.ts. Three ways to give a payload:
 * - Fields for the Type: the chosen type's own fields (required ones marked);
 * - Fields for Mixed Types: every payload field once, by name, for a Type that comes from the
 *   data (an expression); each item sends the fields its own type uses;
 * - JSON: the whole payload object.
 */
export { fieldParameterName, mixedParameterName, parseFieldParameterName } from './names';
export { payloadProperties } from './payloadProperties';
export { getQrType, readPayload } from './read';
export { validatePayload } from './validate';
