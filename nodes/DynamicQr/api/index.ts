/**
 * The Dynamic QR API: the client a run sends its requests through and, in edge/, the service's
 * answers and refusals read into the reference's shapes, with the fallbacks for other readings.
 */
export type { ClientSettings } from './client';
export { ApiClient, DEFAULT_MAX_WAIT_SECONDS } from './client';
export { isGone, rejectsField } from './edge/errors';
export type { PageCursor } from './edge/lists';
export { FIRST_PAGE } from './edge/lists';
export * from './edge/records';
export * from './edge/scanStatistics';
export * from './edge/webhooks';
export * from './events';
export { hasControlCharacters } from './headerText';
export { multipartBody } from './multipart';
export type { BinaryAnswer } from './request';
