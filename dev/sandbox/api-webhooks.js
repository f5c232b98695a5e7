'use strict';

// Webhook endpoints: validation here, storage and delivery in the dispatcher (webhooks.js).

const { paginate } = require('./pagination');
const { invalid, notFound } = require('./http-util');
const { checkUrl } = require('./validators');
const { ID_PARAM, PAGINATION_QUERY } = require('./api-docs');

const EVENT_TYPES = [
	'qr_code.created',
	'qr_code.updated',
	'qr_code.deleted',
	'scan.created',
	'lead.created',
];

function validateEndpoint(body) {
	const errors = {};
	for (const field of Object.keys(body)) {
		if (field !== 'url' && field !== 'events')
			errors[field] = `${field} is not accepted; send only: url, events.`;
	}
	if (body.url === undefined || body.url === null || body.url === '')
		errors.url = 'The url field is required.';
	else if (checkUrl(body.url)) errors.url = `url ${checkUrl(body.url)}.`;
	if (body.events === undefined) {
		errors.events = 'The events field is required.';
	} else if (!Array.isArray(body.events) || body.events.length === 0) {
		errors.events = `events must be a non-empty list of: ${EVENT_TYPES.join(', ')}.`;
	} else {
		const unknown = body.events.filter((event) => !EVENT_TYPES.includes(event));
		if (unknown.length)
			errors.events = `Unknown events: ${unknown.join(', ')}. Known: ${EVENT_TYPES.join(', ')}.`;
	}
	if (Object.keys(errors).length) throw invalid(errors);
	return { url: body.url, events: [...new Set(body.events)] };
}

function webhookRoutes({ dispatcher }) {
	return [
		{
			method: 'GET',
			path: '/webhooks',
			query: PAGINATION_QUERY,
			summary: "List the workspace's webhook endpoints",
			success: { status: 200, description: 'A page of webhook endpoints (without secrets)' },
			handle: ({ workspace, query, listUrl }) => ({
				status: 200,
				json: paginate(dispatcher.listEndpoints(workspace.id), query, listUrl),
			}),
		},
		{
			method: 'POST',
			path: '/webhooks',
			write: true,
			body: 'json',
			summary: 'Register a webhook endpoint; the answer holds its signing secret',
			bodySchema: {
				type: 'object',
				required: ['url', 'events'],
				properties: {
					url: { type: 'string', format: 'uri' },
					events: { type: 'array', minItems: 1, items: { type: 'string', enum: EVENT_TYPES } },
				},
			},
			success: { status: 201, description: 'The endpoint with its secret (whsec_...)' },
			handle: ({ workspace, body }) => ({
				status: 201,
				json: { data: dispatcher.createEndpoint(workspace, validateEndpoint(body)) },
			}),
		},
		{
			method: 'DELETE',
			path: '/webhooks/{id}',
			params: [ID_PARAM],
			write: true,
			summary: 'Remove a webhook endpoint',
			success: { status: 204, description: 'Removed' },
			handle({ workspace, params }) {
				if (!dispatcher.deleteEndpoint(workspace.id, params.id)) throw notFound('webhook endpoint');
				return { status: 204 };
			},
		},
	];
}

/**
 * For readings (readings/secret-*.js): an `after` hook that gives a successful POST /webhooks
 * answer another shape, `place({ data: endpoint without its secret, secret })`.
 */
function moveCreatedSecret(place) {
	return (call, answer) => {
		if (call.method !== 'POST' || call.route !== '/webhooks' || answer.status !== 201)
			return answer;
		const { secret, ...data } = answer.json.data;
		return { ...answer, json: place({ data, secret }) };
	};
}

module.exports = { webhookRoutes, moveCreatedSecret, EVENT_TYPES };
