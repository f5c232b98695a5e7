import { NodeApiError, NodeOperationError, type INode, type JsonObject } from 'n8n-workflow';

import { namesField, type ApiErrorBody } from './errorBody';
import { explainTooLarge, type SentRequest } from '../tooLarge';
import { isObject } from './records';

/** Statuses where the same request may succeed later; every other 4xx needs a change first. */
const isTransient = (status: number) => status >= 500 || status === 408 || status === 429;

const RECORD_NAMES = new Map([
	['qr-codes', 'QR code'],
	['cards', 'card'],
	['webhooks', 'webhook endpoint'],
	['uploads/logos', 'logo upload'],
	['static-qr-codes', 'static QR code'],
]);

/** "QR code abc123def456" for /qr-codes/abc123def456/scans, so a 404 names what was missing. */
function describeRecord(path: string): string {
	const segments = path.replace(/^\/+/, '').split('/');
	const at = RECORD_NAMES.has(segments.slice(0, 2).join('/')) ? 2 : 1; // uploads/logos
	const name = RECORD_NAMES.get(segments.slice(0, at).join('/')) ?? `record under /${segments[0]}`;
	return segments[at] ? `${name} "${segments[at]}"` : name;
}

const text = (message: string, description: string) => ({ message, description });

function explain(status: number, request: SentRequest, body: ApiErrorBody) {
	const { method, path } = request;
	const tooLarge = explainTooLarge(status, request);
	if (tooLarge) return tooLarge;
	// An HTML page comes from a proxy, gateway or website, never the API: say so, not the markup.
	if (body.format === 'html') {
		return text(
			`The Dynamic QR API answered ${status} to ${method} ${path} with an HTML page, as a proxy or gateway answers, instead of the API's JSON`,
			isTransient(status)
				? 'A proxy, gateway or load balancer in front of the service failed or could not reach it. Try again later; if it persists, check the service status.'
				: 'Such a page comes from something other than the API. Check that the Base URL in the credential points at the API (it ends in /api/v1).',
		);
	}
	const fields = [...(body.fields ?? [])].map(([name, texts]) => `${name}: ${texts.join('; ')}`);
	const named = (name: string) => namesField(body.fields?.keys() ?? [], name);
	const apiMessage = [body.message, ...fields].filter(Boolean).join(' | ');
	const said = apiMessage ? `: ${apiMessage}` : '';
	switch (status) {
		case 400:
			return text(
				`The API could not read the request (400)${said}`,
				'Sending the same request again will not help. Check the values of this item (an expression may give a value of the wrong kind) and the Base URL in the credential.',
			);
		case 401:
			return text(
				'The Dynamic QR API refused the API key (401)',
				'The key is absent, wrong or revoked (keys stop working when their creator leaves the team or stops being an administrator). Create a new key in the developer settings of the dashboard and update the Dynamic QR API credential.',
			);
		case 403:
			if (/read.?only/i.test(body.message ?? '')) {
				return text(
					`The API key is read-only and cannot ${method} ${path} (403)`,
					'Creating, changing or deleting codes, webhook endpoints and uploads needs a read-write key. Create a read-write key in the developer settings of the dashboard and use it in the credential.',
				);
			}
			if (/plan|api access|no api/i.test(body.message ?? '')) {
				return text(
					"The workspace's plan has no API access (403)",
					'Move the workspace to a plan with API access, then create a new key in the developer settings of the dashboard (keys stop working when a plan loses API access).',
				);
			}
			return text(
				`The API does not allow this action (403)${said}`,
				'Check that the key belongs to the workspace that owns the record and has the rights this operation needs.',
			);
		case 404:
			return text(
				`The ${describeRecord(path)} was not found in this workspace (404)`,
				'Check the ID: the record may have been deleted, or belong to a workspace other than the one whose API key the credential holds.',
			);
		// Reading "gone-410": a record deleted earlier is answered 410 rather than 404.
		case 410:
			return text(
				`The ${describeRecord(path)} was deleted (410)`,
				'The service says the record is gone for good. Check the ID, or leave out the items that refer to deleted records.',
			);
		case 422: {
			let description = fields.length
				? `Fix the rejected fields: ${fields.join(' | ')}.`
				: 'Check the values sent; the API gave no field details.';
			if (named('type') && /smart redirect|pro plan|\bplan\b/i.test(apiMessage)) {
				description = `This QR code type needs a plan with smart redirects (Pro). Upgrade the plan, or choose a type available on every plan. ${description}`;
			} else if (named('folder')) {
				// Reading "folder-must-exist".
				description = `The service may take only a folder that already exists: create the folder in the dashboard (or use the name of an existing one, spelt the same), or leave Folder empty. ${description}`;
			} else if (named('tags')) {
				description = `Tags are sent as a list and, if the service refuses the list, once more as one comma-separated string. Check the Tags field (for example "spring, print"), or leave it empty. ${description}`;
			} else if (named('idempotency_key')) {
				description =
					'The Idempotency-Key was already used for a different request in the last 24 hours. Give every item its own key (for example a row id), or leave the option empty to use the key derived from the run and the item.';
			}
			return text(
				`The API rejected the request (422): ${fields.length ? fields.join(' | ') : body.message || 'invalid input'}`,
				description,
			);
		}
		case 409:
			if (/idempotency/i.test(body.message ?? '')) {
				return text(
					'The API was still processing an earlier request with the same Idempotency-Key (409)',
					'The code may already exist. Run the item again with the same Idempotency-Key: once the first request is done, the API answers its code instead of creating a second one.',
				);
			}
			return text(
				`The API refused the request as a conflict (409)${said}`,
				'The record changed or is in a state that does not allow this action. Check it and send a request that fits its current state.',
			);
		default:
			return text(
				`The Dynamic QR API answered ${status}${said}`,
				isTransient(status)
					? 'Try again later; if it persists, check the service status.'
					: 'Sending the same request again will not help. Check the values sent and the Base URL in the credential.',
			);
	}
}

/** A refusal: fallbacks decide on its `answer` only, so rewording a text changes nothing. */
export class ServiceError extends NodeApiError {
	answer: { status: number; fields: string[] } = { status: 0, fields: [] };
	// Shown and saved with the execution as before: to n8n and users it is a NodeApiError.
	name = 'NodeApiError';
}

/** Whether an error is a 422 naming this field (or a part of it, "tags.0"). */
export const rejectsField = (error: unknown, name: string): boolean =>
	error instanceof ServiceError &&
	error.answer.status === 422 &&
	namesField(error.answer.fields, name);

/** Whether the record is not there: reading "gone-410" answers 410 for one deleted earlier. */
export const isGone = (error: unknown): boolean =>
	error instanceof ServiceError && [404, 410].includes(error.answer.status);

/** From the answer alone: the request options hold the Authorization header. */
export function httpError(
	node: INode,
	status: number,
	request: SentRequest,
	body: ApiErrorBody,
	itemIndex?: number,
	waited?: { seconds: number; maxSeconds: number },
): ServiceError {
	const { message, description } = explain(status, request, body);
	const httpCode = String(status);
	const fields = Object.fromEntries(body.fields ?? []);
	const error = new ServiceError(
		node,
		{ httpCode, message, body: { message: body.message, fields } } as unknown as JsonObject,
		{
			message,
			description: waited
				? `${description} Waited ${waited.seconds} seconds for the service (the "Max Rate Limit Wait" option allows ${waited.maxSeconds}); raise that option to wait longer.`
				: description,
			httpCode,
			itemIndex,
		},
	);
	error.answer = { status, fields: Object.keys(fields) };
	return error;
}

export function rateLimitError(node: INode, waitedSeconds: number, itemIndex?: number) {
	const message = `The plan's rate limit was still reached after waiting ${waitedSeconds} seconds (429)`;
	return new NodeApiError(node, { httpCode: '429', message } as JsonObject, {
		message,
		description:
			'Raise the "Max Rate Limit Wait" option, lower "Concurrent Requests", or move to a plan with a higher request rate.',
		httpCode: '429',
		itemIndex,
	});
}

export function networkError(node: INode, code: string, request: string, itemIndex?: number) {
	// No code in the message: n8n would swap it for its generic text, losing which request failed.
	const message = `The connection to the Dynamic QR API failed during ${request}`;
	return new NodeApiError(node, { message } as JsonObject, {
		message,
		description: `Network error ${code}. Check the Base URL in the credential and that the service is reachable; the request can be retried safely (creates carry an Idempotency-Key).`,
		itemIndex,
	});
}

/** A request a poll's time budget could not wait for: a sweep ends there instead of failing. */
export class OutOfBudgetError extends NodeOperationError {}

/** A poll out of n8n's time budget fails at once; `failure` tells n8n 2.x the wait asked for. */
export function outOfBudgetError(
	node: INode,
	budgetMs: number,
	request: string,
	waitSeconds?: number,
	status?: number,
) {
	const reason =
		waitSeconds === undefined
			? `The time was up before ${request}.`
			: `The service asked to wait ${waitSeconds} seconds (${status}) before ${request}, longer than the time left.`;
	return new OutOfBudgetError(
		node,
		`The poll could not finish within the ${Math.round(budgetMs / 1000)} seconds n8n allows it`,
		{
			description: `${reason} Nothing was emitted and the poll's cursor did not move, so the next poll reads the same records again. If this keeps happening, poll less often, narrow the filters, or raise n8n's poll timeout (N8N_SCHEDULER_POLL_TIMEOUT).`,
			failure: {
				cause: status === 429 ? 'rate-limited' : 'temporarily-unavailable',
				retryAfterMs: waitSeconds === undefined ? undefined : waitSeconds * 1000,
			},
		},
	);
}

/** An answer no reading fits: the item ends naming what arrived (an object: its fields) and what was expected. */
export function unreadableAnswerError(
	node: INode,
	[what, arrived, expected]: [string, unknown, string],
	itemIndex?: number,
) {
	const keys = isObject(arrived) ? Object.keys(arrived).join(', ') : '';
	const fields = keys ? `{ ${keys} }` : undefined;
	const raw = typeof arrived === 'string' ? arrived : (fields ?? String(JSON.stringify(arrived)));
	// An API key (`api_`) or signing secret (`whsec_`) in it, whosever, is never shown.
	const text = raw.replace(/\b(api|whsec)_[^\s"'<>,]+/g, '$1_[hidden]');
	const shown = text.length > 200 ? `${text.slice(0, 200)}…` : text;
	const description = `Expected ${expected}. Report the shape to the maintainers of this node.`;
	const message = `The service answered ${what} in a shape this node cannot read: ${shown}`;
	return new NodeOperationError(node, message, { itemIndex, description });
}
