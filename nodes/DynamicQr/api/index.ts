/**
 * The Dynamic QR API: the client a run sends its requests through (authentication, the base
 * URL, errors, waits on 429, safe retries, redirects, pacing, paging, multipart bodies) and, in
 * edge/, the service's answers and refusals read into the reference's shapes, with the one table
 * of fallbacks for its other readings.
 */
export type { ClientSettings } from './client';
export { ApiClient, DEFAULT_MAX_WAIT_SECONDS } from './client';
export { isGone, rejectsField } from './edge/errors';
export type { PageCursor } from './edge/lists';
export { FIRST_PAGE } from './edge/lists';
export {
	asObject,
	createdAtOrBefore,
	ID_CHARACTERS,
	ID_PATTERN,
	ID_RULE,
	ownValue,
	recordId,
	scanCount,
	timeMs,
	unwrap,
	uploadRecord,
} from './edge/records';
export type { DayCount } from './edge/scanStatistics';
export { breakdownCounts, scansPerDay, unknownDaysError } from './edge/scanStatistics';
export type { WebhookEndpoint } from './edge/webhooks';
export {
	eventCardId,
	eventQrCodeId,
	looksLikeSecret,
	SECRET_FIELDS,
	SECRET_PREFIX,
	secretCandidates,
	webhookEndpoints,
} from './edge/webhooks';
export type { EventName } from './events';
export { normaliseEvents, sameEvents } from './events';
export { hasControlCharacters } from './headerText';
export { multipartBody } from './multipart';
export type { BinaryAnswer } from './request';
