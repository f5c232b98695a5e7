'use strict';

/**
 * A service that answers every success with 200 or 204 its own way: creates 200, deletes 200
 * with a body, changes 204 with none.
 */
module.exports = {
	name: 'status-codes-alt',
	item: 'Success status codes per operation: not shown',
	description:
		'Creates answer 200 (not 201); DELETE answers 200 with a body ({ data: { id, deleted: true } } for QR codes, { deleted: true } for webhook endpoints); PATCH answers 204 with no body.',
	after(call, answer) {
		if (call.method === 'POST' && answer.status === 201) return { ...answer, status: 200 };
		if (call.method === 'DELETE' && answer.status === 204) {
			const json =
				call.route === '/qr-codes/{id}'
					? { data: { id: call.params.id, deleted: true } }
					: { deleted: true };
			return { status: 200, json };
		}
		if (call.method === 'PATCH' && answer.status === 200) return { status: 204 };
		return answer;
	},
};
