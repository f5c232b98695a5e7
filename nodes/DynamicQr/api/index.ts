/** The Dynamic QR API: the client, and in edge/ the answers read into the reference's shapes. */
export type { ClientSettings } from './client';
export { ApiClient, DEFAULT_MAX_WAIT_SECONDS } from './client';
export type { ListPosition } from './paging';
export type { PlanShare } from './rate';
export { DEFAULT_IN_FLIGHT, DEFAULT_PLAN_SHARE_PERCENT } from './rate';
export { isGone, OutOfBudgetError, rejectsField } from './edge/errors';
export { imageFile } from './edge/images';
export type { Page, PageCursor } from './edge/lists';
export { FIRST_PAGE } from './edge/lists';
export * from './edge/records';
export * from './edge/scanStatistics';
export * from './edge/webhooks';
export * from './events';
export { hasControlCharacters } from './headerText';
export { multipartBody } from './multipart';
export type { BinaryAnswer } from './request';
