import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiClient } from './client';
import { rejectsField } from './errors';
import type { AllItemsOptions } from './paging';
import { allItems } from './paging';
import { timeMs } from './time';

/**
 * Lists filtered with `since` (a card's leads). The reference does not show the format of
 * `since`, nor whether the service reads it to the millisecond, per day, or at all. So the
 * node sends an ISO 8601 time first and, when the service refuses it with a 422 naming `since`,
 * the other plausible forms (readings "since-date-only", "since-unix-seconds"); the form that
 * worked is kept per service (base URL) for the process's life. A service that ignores `since`
 * (reading "since-ignored") is covered by the filter below.
 * Whatever the service does with it, records created at or before `since` are left out here.
 */

type SinceForm = 'iso' | 'date' | 'unixSeconds';

const FORMS: Record<SinceForm, (ms: number) => string> = {
	iso: (ms) => new Date(ms).toISOString(),
	// A day covers the whole of the moment's day: the records of that day before it are left out below.
	date: (ms) => new Date(ms).toISOString().slice(0, 10),
	unixSeconds: (ms) => String(Math.floor(ms / 1000)),
};
const FORM_NAMES = Object.keys(FORMS) as SinceForm[];

/**
 * The form each service (by base URL) accepted. Kept for the process, not a run: it is a fact
 * about the service, true for every run, and each poll of the polling trigger is a run of its
 * own that would otherwise pay a refused request to learn it again. Learnt again after a restart.
 */
const acceptedForms = new Map<string, SinceForm>();

const createdAt = (record: IDataObject): number => timeMs(record.created_at);

/** Whether a record was created at or before `sinceMs` (records without a readable time are kept). */
export const createdAtOrBefore =
	(sinceMs: number) =>
	(record: IDataObject): boolean =>
		createdAt(record) <= sinceMs;

/**
 * The records of a newest-first list created after `sinceMs`, newest first (the first `limit`
 * when given). Throws, naming the service's answer, when it refuses every form of `since`.
 */
export async function listSince(
	client: ApiClient,
	path: string,
	sinceMs: number,
	limit?: number,
	options: AllItemsOptions = {},
): Promise<IDataObject[]> {
	const { baseUrl } = await client.connection();
	const known = acceptedForms.get(baseUrl);
	const order = known ? [known, ...FORM_NAMES.filter((form) => form !== known)] : FORM_NAMES;
	let refusal: unknown;
	for (const form of order) {
		let failure: unknown;
		try {
			const records = await allItems(client, {
				...options,
				path,
				qs: { since: FORMS[form](sinceMs) },
				limit,
				isPast: createdAtOrBefore(sinceMs),
			});
			acceptedForms.set(baseUrl, form);
			return records;
		} catch (error) {
			failure = error;
		}
		// Anything but a refusal of `since` is the API error the client built: passed on as it is.
		if (!rejectsField(failure, 'since')) throw failure;
		refusal = failure;
	}
	throw new NodeOperationError(
		client.ctx.getNode(),
		`The service refused "since" as an ISO 8601 time, as a date and as Unix seconds. Its last answer: ${(refusal as Error).message}`,
		{
			itemIndex: options.itemIndex,
			description:
				'The service reads "since" in a form this node does not know. For Lead › Get Many, remove the Since filter (the leads come newest first); instead of the polling trigger, use the Dynamic QR Trigger with the lead.created event. Please report the answer above to the maintainers of this node.',
		},
	);
}
