import { NodeOperationError, type IDataObject } from 'n8n-workflow';

import type { ApiClient } from '../client';
import { apiRequest, type Call } from '../request';
import { isGone, rejectsField, unreadableAnswerError } from './errors';
import { isObject, recordId, uploadRecord } from './records';
import { SECRET_FIELDS, secretCandidates } from './webhooks';

/** Calls to try in turn, the refusal that moves on, what stands if all fail, the answer kept. */
interface Fallback {
	attempts(call: Call, baseUrl: string): Array<{ call: Call; taken?: () => void }>;
	refused?(error: unknown): boolean;
	settle?(refusal: Error, call: Call, client: ApiClient): unknown;
	answered?(answer: unknown, call: Call, client: ApiClient): Promise<unknown>;
}

/** The forms of `since`, in the order they are tried (ISO 8601, as the reference gives times). */
const SINCE_FORMS = {
	iso: (ms: number) => new Date(ms).toISOString(),
	// The whole of the moment's day: the list's own cut (createdAtOrBefore) leaves out the rest.
	date: (ms: number) => new Date(ms).toISOString().slice(0, 10),
	unixSeconds: (ms: number) => String(Math.floor(ms / 1000)),
};
type SinceForm = keyof typeof SINCE_FORMS;

/** The form of `since` each base URL took. Kept for the process: each poll would learn it again. */
const sinceForms = new Map<string, SinceForm>();

/** THE fallbacks, deciding on a refusal's status and fields, never its words; tried in order. */
const FALLBACKS: Fallback[] = [
	{
		// Readings "since-date-only" and "since-unix-seconds": `since` goes as ISO 8601 and, on a
		// 422 naming it, as a date, then as Unix seconds; the form taken is tried first from then on.
		attempts(call, baseUrl) {
			const ms = typeof call.qs?.since === 'string' ? Date.parse(call.qs.since) : NaN;
			if (!Number.isFinite(ms)) return [];
			const known = sinceForms.get(baseUrl);
			const forms = Object.keys(SINCE_FORMS) as SinceForm[];
			return (known ? [known, ...forms.filter((form) => form !== known)] : forms).map((form) => ({
				call: { ...call, qs: { ...call.qs, since: SINCE_FORMS[form](ms) } },
				taken: () => sinceForms.set(baseUrl, form),
			}));
		},
		refused: (error) => rejectsField(error, 'since'),
		settle(refusal, call, client) {
			throw new NodeOperationError(
				client.ctx.getNode(),
				`The service refused "since" as an ISO 8601 time, as a date and as Unix seconds. Its last answer: ${refusal.message}`,
				{
					itemIndex: call.itemIndex,
					description:
						'The service reads "since" in a form this node does not know. For Lead › Get Many, remove the Since filter (the leads come newest first); instead of the polling trigger, use the Dynamic QR Trigger with the lead.created event. Please report the answer above to the maintainers of this node.',
				},
			);
		},
	},
	{
		// Reading "tags-as-string": tags go as a list and, on a 422 naming them, once more as one
		// comma-separated string, under a key of their own (the first may be remembered refused).
		attempts(call) {
			const { body, idempotencyKey: key } = call;
			if (!isObject(body) || !Array.isArray(body.tags)) return [];
			const asText: IDataObject = { ...body, tags: body.tags.join(', ') };
			return [{ call }, { call: { ...call, body: asText, idempotencyKey: key && `${key}-tags` } }];
		},
		refused: (error) => rejectsField(error, 'tags'),
	},
	{
		// Readings "page-past-end-404" and "gone-410": a page after the first answered as not
		// there is an empty page, which ends the list; on page 1 it stays an error.
		attempts: (call) => (call.method === 'GET' && Number(call.qs?.page) > 1 ? [{ call }] : []),
		refused: isGone,
		settle: () => ({ data: [] }),
	},
	{
		// A record comes with its id, a new webhook endpoint with its secret too. Reading
		// "status-codes-alt": a change answered 204 without the record is read back; any other
		// answer without them ends the item, never a success without the record.
		attempts: (call) => (answersRecord(call) ? [{ call }] : []),
		async answered(answer, { method, path, itemIndex }, client) {
			const id = isObject(answer) ? recordId(uploadRecord(answer)) : undefined;
			const endpoint = path === '/webhooks';
			if (id !== undefined && (!endpoint || secretCandidates(answer).length)) return answer;
			if (method === 'PATCH') return await client.request('GET', path, { itemIndex });
			// An endpoint whose secret was never shown delivers what no one can verify.
			const deleted =
				id !== undefined &&
				(await client.request('DELETE', `/webhooks/${encodeURIComponent(id)}`).then(
					() => true,
					() => false,
				));
			const expected = endpoint
				? `its id and signing secret (under ${SECRET_FIELDS.join(', ')})${deleted ? '; the endpoint was deleted again' : ''}`
				: 'the record with its id';
			const unread: [string, unknown, string] = [`${method} ${path}`, answer, expected];
			throw unreadableAnswerError(client.ctx.getNode(), unread, itemIndex);
		},
	},
];

/** Calls answered with one record: a create (not of an image), a change, a read of one record. */
const answersRecord = ({ method, path, binary }: Call) =>
	!binary &&
	(method === 'POST' || method === 'PATCH' || (method === 'GET' && /^\/?[^/]+\/[^/]+$/.test(path)));

/** Sends a call through the fallbacks (from `from` on) that apply to it. */
export async function sendWithFallbacks<T>(client: ApiClient, call: Call, from = 0): Promise<T> {
	const { baseUrl } = await client.connection();
	for (let index = from; index < FALLBACKS.length; index++) {
		const fallback = FALLBACKS[index];
		const attempts = fallback.attempts(call, baseUrl);
		if (!attempts.length) continue;
		let refusal: unknown;
		for (const { call: attempt, taken } of attempts) {
			try {
				const answer = await sendWithFallbacks<T>(client, attempt, index + 1);
				taken?.();
				return fallback.answered ? ((await fallback.answered(answer, call, client)) as T) : answer;
			} catch (error) {
				refusal = error;
			}
			// Anything but the refusal this fallback answers is passed on as it is.
			if (!fallback.refused?.(refusal)) throw refusal;
		}
		if (!fallback.settle) throw refusal;
		return fallback.settle(refusal as Error, call, client) as T;
	}
	return await apiRequest<T>(client, call);
}
