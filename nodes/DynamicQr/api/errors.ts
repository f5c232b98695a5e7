import type { INode, JsonObject } from 'n8n-workflow';
import { NodeApiError } from 'n8n-workflow';

/** The API's error body: `message` plus, for 422, field names each holding a list of messages. */
export interface ApiErrorBody {
	message?: string;
	errors?: Record<string, string[] | string>;
	/** Set when the answer was not the API's JSON: an HTML page (kept out of texts) or plain text. */
	format?: 'html' | 'text';
}

/** Statuses where the same request may succeed later; every other 4xx needs a change first. */
const isTransient = (status: number) => status >= 500 || status === 408 || status === 429;

/** An HTML page comes from a proxy, gateway or website, never from the API: say so, not the markup. */
function explainPage(
	status: number,
	method: string,
	path: string,
): { message: string; description: string } {
	return {
		message: `The Dynamic QR API answered ${status} to ${method} ${path} with an HTML page, as a proxy or gateway answers, instead of the API's JSON`,
		description: isTransient(status)
			? 'A proxy, gateway or load balancer in front of the service failed or could not reach it. Try again later; if it persists, check the service status.'
			: 'Such a page comes from something other than the API. Check that the Base URL in the credential points at the API (it ends in /api/v1).',
	};
}

/**
 * Answers about size, whoever gives them (the API or a proxy in front of it): the same request
 * can never succeed, so they say what to make smaller rather than to try again.
 */
const TOO_LARGE: Record<number, { message: string; description: string }> = {
	413: {
		message: 'The request is larger than the service accepts',
		description:
			'Sending it again will not help. For Logo > Upload, use a smaller image (a logo of a few hundred kilobytes is plenty); otherwise shorten the long values of this item.',
	},
	414: {
		message: 'The request address is longer than the service accepts',
		description:
			'Sending it again will not help. Shorten the values sent in the address, such as Search.',
	},
	431: {
		message: 'The request headers are larger than the service accepts',
		description: 'Sending it again will not help. Use a shorter Idempotency Key for this item.',
	},
};

const RECORD_NAMES: Record<string, string> = {
	'qr-codes': 'QR code',
	cards: 'card',
	webhooks: 'webhook endpoint',
	'uploads/logos': 'logo upload',
	'static-qr-codes': 'static QR code',
};

/** "QR code abc123def456" for /qr-codes/abc123def456/scans, so a 404 names what was missing. */
function describeRecord(path: string): string {
	const [collection, id] = path.replace(/^\/+/, '').split('/');
	const name = RECORD_NAMES[collection] ?? `record under /${collection}`;
	return id ? `${name} "${id}"` : name;
}

function listFieldErrors(errors: ApiErrorBody['errors']): string[] {
	return Object.entries(errors ?? {}).map(([field, messages]) => {
		const text = Array.isArray(messages) ? messages.join('; ') : String(messages);
		return `${field}: ${text}`;
	});
}

function explain(
	status: number,
	method: string,
	path: string,
	body: ApiErrorBody,
): { message: string; description: string } {
	const tooLarge = TOO_LARGE[status];
	if (tooLarge)
		return { message: `${tooLarge.message} (${status})`, description: tooLarge.description };
	if (body.format === 'html') return explainPage(status, method, path);
	const apiMessage = body.message ?? '';
	switch (status) {
		case 400:
			return {
				message: `The API could not read the request (400)${apiMessage ? `: ${apiMessage}` : ''}`,
				description:
					'Sending the same request again will not help. Check the values of this item (an expression may give a value of the wrong kind) and the Base URL in the credential.',
			};
		case 401:
			return {
				message: 'The Dynamic QR API refused the API key (401)',
				description:
					'The key is absent, wrong or revoked (keys stop working when their creator leaves the team or stops being an administrator). Create a new key in the developer settings of the dashboard and update the Dynamic QR API credential.',
			};
		case 403:
			if (/read.?only/i.test(apiMessage)) {
				return {
					message: `The API key is read-only and cannot ${method} ${path} (403)`,
					description:
						'Creating, changing or deleting codes, webhook endpoints and uploads needs a read-write key. Create a read-write key in the developer settings of the dashboard and use it in the credential.',
				};
			}
			if (/plan|api access|no api/i.test(apiMessage)) {
				return {
					message: "The workspace's plan has no API access (403)",
					description:
						'Move the workspace to a plan with API access, then create a new key in the developer settings of the dashboard (keys stop working when a plan loses API access).',
				};
			}
			return {
				message: `The API does not allow this action (403)${apiMessage ? `: ${apiMessage}` : ''}`,
				description:
					'Check that the key belongs to the workspace that owns the record and has the rights this operation needs.',
			};
		case 404:
			return {
				message: `The ${describeRecord(path)} was not found in this workspace (404)`,
				description:
					'Check the ID: the record may have been deleted, or belong to a workspace other than the one whose API key the credential holds.',
			};
		case 422: {
			const fields = listFieldErrors(body.errors);
			const text = [apiMessage, ...fields].join(' ').toLowerCase();
			let description = fields.length
				? `Fix the rejected fields: ${fields.join(' | ')}.`
				: 'Check the values sent; the API gave no field details.';
			if (/smart redirect|pro plan|\bplan\b/.test(text) && body.errors?.type !== undefined) {
				description = `This QR code type needs a plan with smart redirects (Pro). Upgrade the plan, or choose a type available on every plan. ${description}`;
			} else if (body.errors?.folder !== undefined) {
				description = `The service may take only a folder that already exists: create the folder in the dashboard (or use the name of an existing one, spelt the same), or leave Folder empty. ${description}`;
			} else if (body.errors?.tags !== undefined) {
				description = `Tags are sent as a list and, if the service refuses the list, once more as one comma-separated string. Check the Tags field (for example "spring, print"), or leave it empty. ${description}`;
			} else if (body.errors?.idempotency_key !== undefined) {
				description =
					'The Idempotency-Key was already used for a different request in the last 24 hours. Give every item its own key (for example a row id), or leave the option empty to use the key derived from the execution and the item.';
			}
			return {
				message: `The API rejected the request (422): ${fields.length ? fields.join(' | ') : apiMessage || 'invalid input'}`,
				description,
			};
		}
		case 409:
			if (/idempotency/i.test(apiMessage)) {
				return {
					message: `The API was still processing an earlier request with the same Idempotency-Key (409)`,
					description:
						'The code may already exist. Run the item again with the same Idempotency-Key: once the first request is done, the API answers its code instead of creating a second one.',
				};
			}
			return {
				message: `The API refused the request as a conflict (409)${apiMessage ? `: ${apiMessage}` : ''}`,
				description:
					'The record changed or is in a state that does not allow this action. Check it and send a request that fits its current state.',
			};
		default:
			return {
				message: `The Dynamic QR API answered ${status}${apiMessage ? `: ${apiMessage}` : ''}`,
				description: isTransient(status)
					? 'Try again later; if it persists, check the service status.'
					: 'Sending the same request again will not help. Check the values sent and the Base URL in the credential.',
			};
	}
}

export interface WaitSpent {
	seconds: number;
	maxSeconds: number;
}

/** Added when answers were waited out within "Max Rate Limit Wait" and the last one still failed. */
function waitNote(waited?: WaitSpent): string {
	if (!waited) return '';
	return ` Waited ${waited.seconds} seconds for the service (the "Max Rate Limit Wait" option allows ${waited.maxSeconds}); raise that option to wait longer.`;
}

/**
 * Builds the NodeApiError from the answer alone: the request options (which hold the
 * Authorization header) are never handed to NodeApiError.
 */
export function httpError(
	node: INode,
	status: number,
	method: string,
	path: string,
	body: ApiErrorBody,
	itemIndex?: number,
	waited?: WaitSpent,
): NodeApiError {
	const explained = explain(status, method, path, body);
	const message = explained.message;
	const description = `${explained.description}${waitNote(waited)}`;
	const errorResponse = { httpCode: String(status), message, body } as unknown as JsonObject;
	return new NodeApiError(node, errorResponse, {
		message,
		description,
		httpCode: String(status),
		itemIndex,
	});
}

export function rateLimitError(
	node: INode,
	waitedSeconds: number,
	itemIndex?: number,
): NodeApiError {
	const message = `The plan's rate limit was still reached after waiting ${waitedSeconds} seconds (429)`;
	return new NodeApiError(node, { httpCode: '429', message } as JsonObject, {
		message,
		description:
			'Raise the "Max Rate Limit Wait" option, lower "Concurrent Requests", or move to a plan with a higher request rate.',
		httpCode: '429',
		itemIndex,
	});
}

export function networkError(
	node: INode,
	code: string,
	method: string,
	path: string,
	itemIndex?: number,
): NodeApiError {
	// The code stays out of the message: n8n swaps any message naming a network code for its
	// generic text, which would lose which request failed.
	const message = `The connection to the Dynamic QR API failed during ${method} ${path}`;
	return new NodeApiError(node, { message } as JsonObject, {
		message,
		description: `Network error ${code}. Check the Base URL in the credential and that the service is reachable; the request can be retried safely (creates carry an Idempotency-Key).`,
		itemIndex,
	});
}
