/**
 * Dates as the parameter reader gives them (ISO 8601 text, checked for a real calendar date),
 * in the forms the API takes.
 */

/** "2030-05-01": the calendar day the text names, as written (its own offset, not UTC). */
export const calendarDay = (iso: string): string => iso.slice(0, 10);

/** The full ISO 8601 timestamp in UTC. */
export const timestamp = (iso: string): string => new Date(Date.parse(iso)).toISOString();
