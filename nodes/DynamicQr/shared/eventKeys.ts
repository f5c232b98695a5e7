/**
 * The recipes of `event_key`, the one key of an event on every item of both triggers
 * (docs/triggers.md, "Event keys"): the same whichever path brings the event, different for
 * different events. A lead or a new code is keyed by its record, as the ledger keys it
 * (createdRecordKey, api/edge/webhooks.ts); any other delivery by its `webhook-id`.
 */

/** A code's milestone: the same from either trigger, delivered, caught up or polled. */
export const milestoneKey = (codeId: string, milestone: number | undefined) =>
	`milestone:${codeId}:${milestone}`;

/** A New Scans reading, by its count and the last scan it saw: after a reset, a climb is new. */
export const newScansKey = (codeId: string, scans: number, lastScannedAt: unknown) =>
	`new_scans:${codeId}:${scans}:${String(lastScannedAt ?? '')}`;

/** A quiet spell, by when it began and the days it took: a new scan begins another. */
export const quietKey = (codeId: string, days: number, sinceMs: number) =>
	`quiet:${codeId}:${days}:${new Date(sinceMs).toISOString()}`;

/** A spell of a stopped endpoint, begun after the poll that last saw it otherwise. */
export const endpointStoppedKey = (endpointId: string, reason: string, after: string) =>
	`endpoint_stopped:${endpointId}:${reason}:${after}`;
