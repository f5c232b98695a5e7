/**
 * The Dynamic QR API: the client a run sends its requests through (authentication, the base
 * URL, errors, waits on 429, safe retries, redirects, pacing, paging, `since`, multipart
 * bodies) and the contract of the service (its records, ids and event names).
 */
export { CREDENTIAL_NAME } from './baseUrl';
export type { ApiContext, ClientSettings, Connection } from './client';
export { ApiClient, DEFAULT_MAX_WAIT_SECONDS } from './client';
export { isGone, rejectsField } from './errors';
export type { EventName } from './events';
export { EVENT_NAMES, normaliseEvents, sameEvents } from './events';
export { hasControlCharacters } from './headerText';
export { multipartBody } from './multipart';
export type { AllItemsOptions, Page, PageCursor } from './paging';
export { FIRST_PAGE, MAX_PAGE_SIZE } from './paging';
export {
	asObject,
	ID_CHARACTERS,
	ID_PATTERN,
	ID_RULE,
	isObject,
	ownValue,
	recordId,
	scanCount,
	unwrap,
} from './records';
export type { ApiRequestOptions, BinaryAnswer } from './request';
export { createdAtOrBefore } from './since';
export { timeMs } from './time';
