'use strict';

const { useSandbox } = require('./helpers');
const { request } = require('../client');

const sb = useSandbox();

// Every endpoint of the reference's endpoint table.
const REFERENCE_ENDPOINTS = [
	'GET /me',
	'GET /qr-codes',
	'POST /qr-codes',
	'GET /qr-codes/{id}',
	'PATCH /qr-codes/{id}',
	'DELETE /qr-codes/{id}',
	'GET /qr-codes/{id}/image',
	'GET /qr-codes/{id}/scans',
	'GET /cards',
	'GET /cards/{id}',
	'GET /cards/{id}/leads',
	'GET /webhooks',
	'POST /webhooks',
	'DELETE /webhooks/{id}',
	'POST /uploads/logos',
	'POST /static-qr-codes',
];

test('the OpenAPI 3.1 document lists every endpoint, with bearer security and the API base URL', async () => {
	const answer = await request(`${sb.siteUrl}/developers/openapi.json`);
	expect(answer.status).toBe(200);
	expect(answer.headers['content-type']).toMatch(/^application\/json/);
	const doc = answer.body;
	expect(doc.openapi).toBe('3.1.0');
	expect(doc.servers).toEqual([{ url: sb.baseUrl }]);
	expect(doc.components.securitySchemes.bearerAuth).toMatchObject({
		type: 'http',
		scheme: 'bearer',
	});
	expect(doc.security).toEqual([{ bearerAuth: [] }]);
	const operations = Object.entries(doc.paths).flatMap(([path, methods]) =>
		Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`),
	);
	expect(operations.sort()).toEqual([...REFERENCE_ENDPOINTS].sort());
});

test('parameters, bodies and answers are described', async () => {
	const { paths } = (await request(`${sb.siteUrl}/developers/openapi.json`)).body;
	const names = (operation) =>
		operation.parameters.map((parameter) => `${parameter.in}:${parameter.name}`);
	expect(names(paths['/qr-codes'].get)).toEqual([
		'query:search',
		'query:type',
		'query:archived',
		'query:page',
		'query:per_page',
	]);
	expect(names(paths['/qr-codes'].post)).toEqual(['header:Idempotency-Key']);
	expect(paths['/qr-codes'].post.requestBody.content['application/json'].schema.required).toEqual([
		'type',
		'name',
		'payload',
	]);
	expect(names(paths['/qr-codes/{id}/image'].get)).toEqual([
		'path:id',
		'query:format',
		'query:size',
		'query:mm',
		'query:dpi',
	]);
	expect(Object.keys(paths['/qr-codes/{id}/image'].get.responses['200'].content)).toEqual([
		'image/png',
		'image/svg+xml',
		'application/pdf',
		'application/postscript',
	]);
	expect(names(paths['/qr-codes/{id}/scans'].get)).toEqual(['path:id', 'query:from', 'query:to']);
	expect(names(paths['/cards/{id}/leads'].get)).toContain('query:since');
	expect(Object.keys(paths['/uploads/logos'].post.requestBody.content)).toEqual([
		'multipart/form-data',
	]);
	expect(paths['/qr-codes'].post.responses).toHaveProperty('201');
	expect(paths['/qr-codes/{id}'].delete.responses).toHaveProperty('204');
	for (const methods of Object.values(paths)) {
		for (const operation of Object.values(methods)) {
			expect(Object.keys(operation.responses)).toEqual(
				expect.arrayContaining(['401', '403', '422', '429']),
			);
		}
	}
});
