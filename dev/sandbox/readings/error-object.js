'use strict';

/** Machine-readable codes by status, as such services name them. */
const CODES = new Map([
	[400, 'bad_request'],
	[401, 'unauthenticated'],
	[403, 'forbidden'],
	[404, 'not_found'],
	[409, 'conflict'],
	[410, 'gone'],
	[413, 'payload_too_large'],
	[422, 'validation_failed'],
	[429, 'rate_limited'],
]);

/**
 * A service that wraps every error in an `error` object with a code, and names the one field a
 * refusal is about as `param`, as Stripe does.
 */
module.exports = {
	name: 'error-object',
	item: 'Statuses in the 5xx range and machine-readable error codes: not shown',
	description:
		'Every error answer (4xx and 5xx) is { error: { code, message } }, with a machine-readable code (not_found, validation_failed, …) and, when the sandbox names fields, the first of them as error.param; no top-level message or errors.',
	error(call, answer) {
		const [param] = Object.keys(answer.json.errors ?? {});
		const code = CODES.get(answer.status) ?? (answer.status >= 500 ? 'internal_error' : 'error');
		return {
			...answer,
			json: { error: { code, message: answer.json.message, ...(param ? { param } : {}) } },
		};
	},
};
