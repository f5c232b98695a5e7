/** "2030-05-01" of checked ISO 8601 text: the day as written (its own offset, not UTC). */
export const calendarDay = (iso: string): string => iso.slice(0, 10);
