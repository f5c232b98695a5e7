'use strict';

/**
 * A service that lists what it refused: `errors` is a list of objects, one per message, each with
 * the field it is about and a machine-readable code, as many JSON APIs answer.
 */
module.exports = {
	name: 'errors-as-list',
	item: 'Statuses in the 5xx range and machine-readable error codes: not shown',
	description:
		'Error answers carry `errors` as a list of { field, message, code } objects, one per message (e.g. [{ "field": "tags", "message": "…", "code": "invalid" }]), instead of an object of field names; `message` stays.',
	error(call, answer) {
		const list = Object.entries(answer.json.errors ?? {}).flatMap(([field, messages]) =>
			messages.map((message) => ({ field, message, code: 'invalid' })),
		);
		return { ...answer, json: { message: answer.json.message, errors: list } };
	},
};
