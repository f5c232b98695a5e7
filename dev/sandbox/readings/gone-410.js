'use strict';

/** The records whose deletion the service remembers, by route. */
const ROUTES = new Map([
	['/qr-codes/{id}', 'QR code'],
	['/webhooks/{id}', 'webhook endpoint'],
]);

/**
 * A service that remembers what was deleted: a QR code or webhook endpoint deleted through the
 * API answers 410 Gone, not 404, to every later request for it (a repeated DELETE included).
 */
module.exports = {
	name: 'gone-410',
	item: 'Success status codes per operation: not shown',
	description:
		'A QR code or webhook endpoint deleted through the API answers 410 Gone (not 404) to every later request for it, a second DELETE included; ids never known still answer 404.',
	after(call, answer) {
		if (call.method === 'DELETE' && ROUTES.has(call.route) && answer.status < 300) {
			call.memory.gone ??= new Set();
			call.memory.gone.add(call.params.id);
		}
		return answer;
	},
	error(call, answer) {
		const id = call.params?.id;
		if (answer.status !== 404 || !ROUTES.has(call.route) || !call.memory.gone?.has(id))
			return answer;
		return {
			...answer,
			status: 410,
			json: { message: `The ${ROUTES.get(call.route)} ${id} was deleted.`, errors: {} },
		};
	},
};
