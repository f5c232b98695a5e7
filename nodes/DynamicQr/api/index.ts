/**
 * The one client every Dynamic QR node uses: authentication, the base URL, errors, waits on
 * 429, safe retries, redirects, pacing, paging, `since`, multipart bodies, the event list and
 * record helpers (ids, the `data` envelope, signing secrets, times).
 */
export { CREDENTIAL_NAME, getBaseUrl, getSiteUrl } from './baseUrl';
export { isGone, rejectsField } from './errors';
export { EVENT_NAMES, EVENT_OPTIONS, normaliseEvents, sameEvents } from './events';
export { inFlightLimit, setInFlightCap } from './inflight';
export { multipartBody } from './multipart';
export type { Field, ParameterSource } from './parameters';
export {
	describeValue,
	hasControlCharacters,
	isIsoDate,
	nodeParameters,
	ParameterReader,
	replaceControlCharacters,
} from './parameters';
export type { AllItemsOptions, Page, PageCursor } from './paging';
export { apiRequestAllItems, FIRST_PAGE, listPage, MAX_PAGE_SIZE } from './paging';
export {
	asObject,
	cardLabel,
	ID_CHARACTERS,
	ID_PATTERN,
	ID_RULE,
	maskSigningSecrets,
	ownValue,
	signingSecretsIn,
	unwrap,
} from './records';
export type { ApiContext, ApiRequestOptions, BinaryAnswer } from './request';
export { apiRequest, DEFAULT_MAX_WAIT_SECONDS, setMaxRateLimitWait } from './request';
export { createdAtOrBefore, listSince } from './since';
export { timeMs } from './time';
