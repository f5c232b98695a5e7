'use strict';

// The OpenAPI 3.1 description, generated from the same route table that serves the API, so
// every served endpoint is described and nothing is described that is not served.

const ID_PARAM = {
	name: 'id',
	type: 'string',
	description: '12-character id',
	pattern: '^[A-Za-z0-9]{12}$',
};
const PAGINATION_QUERY = [
	{ name: 'page', type: 'integer', description: 'Page number, from 1' },
	{ name: 'per_page', type: 'integer', description: 'Records per page: default 25, at most 100' },
];
const IMAGE_TYPES = ['image/png', 'image/svg+xml', 'application/pdf', 'application/postscript'];
const IMAGE_QUERY = [
	{
		name: 'format',
		type: 'string',
		enum: ['png', 'svg', 'pdf', 'eps'],
		description: 'Default png',
	},
	{ name: 'size', type: 'integer', description: 'Pixels (default 1024)' },
	{ name: 'mm', type: 'number', description: 'Physical size in millimetres; wins over size' },
	{ name: 'dpi', type: 'integer', description: 'Resolution for mm (default 300)' },
];

const ERROR_ANSWERS = {
	401: 'Key absent, wrong or revoked',
	403: 'Read-only key used to write, or plan without API access',
	404: 'No such record or path in this account',
	422: 'Invalid request; errors names the field',
	429: 'Too many requests; wait Retry-After seconds',
};

const schemaOf = ({ type, enum: values, pattern }) => ({
	type,
	...(values ? { enum: values } : {}),
	...(pattern ? { pattern } : {}),
});

const parameter = (where) => (param) => ({
	name: param.name,
	in: where,
	required: where === 'path',
	...(param.description ? { description: param.description } : {}),
	schema: schemaOf({ type: param.type || 'string', enum: param.enum, pattern: param.pattern }),
});

function requestBodyOf(route) {
	if (route.body === 'multipart') {
		return {
			required: true,
			content: {
				'multipart/form-data': {
					schema: {
						type: 'object',
						required: ['file'],
						properties: { file: { type: 'string', contentMediaType: 'application/octet-stream' } },
					},
				},
			},
		};
	}
	if (route.body === 'json') {
		return {
			required: true,
			content: { 'application/json': { schema: route.bodySchema || { type: 'object' } } },
		};
	}
	return undefined;
}

function successAnswer(route) {
	const { status, description, binary } = route.success;
	if (status === 204) return { description };
	const content = binary
		? Object.fromEntries(
				IMAGE_TYPES.map((type) => [type, { schema: { type: 'string', contentMediaType: type } }]),
			)
		: { 'application/json': { schema: { type: 'object' } } };
	return { description, content };
}

function operationOf(route) {
	const responses = { [route.success.status]: successAnswer(route) };
	for (const status of Object.keys(ERROR_ANSWERS)) {
		responses[status] = {
			description: ERROR_ANSWERS[status],
			content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
		};
	}
	const parameters = [
		...(route.params || []).map(parameter('path')),
		...(route.query || []).map(parameter('query')),
		...(route.headers || []).map(parameter('header')),
	];
	const requestBody = requestBodyOf(route);
	return {
		operationId: `${route.method.toLowerCase()}${route.path.replace(/\{(\w+)\}/g, 'By_$1').replace(/[^A-Za-z0-9]+(\w)/g, (_, c) => c.toUpperCase())}`,
		summary: route.summary,
		...(route.write ? { description: 'Needs a read-write API key.' } : {}),
		...(parameters.length ? { parameters } : {}),
		...(requestBody ? { requestBody } : {}),
		responses,
	};
}

function buildOpenApi(routes, urls) {
	const paths = {};
	for (const route of routes) {
		paths[route.path] = paths[route.path] || {};
		paths[route.path][route.method.toLowerCase()] = operationOf(route);
	}
	return {
		openapi: '3.1.0',
		info: {
			title: 'Dynamic QR Code Service API',
			version: '1.0.0',
			description:
				'Served by the local sandbox. Keys begin with api_ and go in the header Authorization: Bearer <key>.',
		},
		servers: [{ url: urls.baseUrl }],
		security: [{ bearerAuth: [] }],
		components: {
			securitySchemes: {
				bearerAuth: { type: 'http', scheme: 'bearer', description: 'API key (begins with api_)' },
			},
			schemas: {
				Error: {
					type: 'object',
					required: ['message', 'errors'],
					properties: {
						message: { type: 'string' },
						errors: {
							type: 'object',
							additionalProperties: { type: 'array', items: { type: 'string' } },
						},
					},
				},
			},
		},
		paths,
	};
}

module.exports = { buildOpenApi, ID_PARAM, PAGINATION_QUERY, IMAGE_QUERY };
