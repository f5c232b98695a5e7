/**
 * The one client every Dynamic QR node uses: authentication, the base URL, errors, waits on
 * 429, safe retries, pacing, paging, multipart bodies, the event list and record helpers.
 */
export { CREDENTIAL_NAME, getBaseUrl, getSiteUrl } from './baseUrl';
export { EVENT_NAMES, EVENT_OPTIONS, normaliseEvents, sameEvents } from './events';
export { multipartBody } from './multipart';
export type { AllItemsOptions, Page } from './paging';
export { apiRequestAllItems, listPage, MAX_PAGE_SIZE } from './paging';
export { asObject, cardLabel, ID_PATTERN, unwrap } from './records';
export type { ApiContext, ApiRequestOptions, BinaryAnswer } from './request';
export { apiRequest, DEFAULT_MAX_WAIT_SECONDS, setMaxRateLimitWait } from './request';
