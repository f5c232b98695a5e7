/** The Dynamic QR API: the client, and in edge/ the answers read into the reference's shapes. */
export { ApiClient, DEFAULT_MAX_WAIT_SECONDS, type ClientSettings } from './client';
export type { ListPosition } from './paging';
export { DEFAULT_IN_FLIGHT, DEFAULT_PLAN_SHARE_PERCENT, type PlanShare } from './rate';
export { isGone, OutOfBudgetError, rejectsField } from './edge/errors';
export { imageFile } from './edge/images';
export { FIRST_PAGE, type Page, type PageCursor } from './edge/lists';
export * from './edge/records';
export * from './edge/scanStatistics';
export * from './edge/webhooks';
export * from './events';
export { hasControlCharacters } from './headerText';
export { multipartBody } from './multipart';
export type { BinaryAnswer } from './request';
