'use strict';
/**
 * The credential as n8n uses it: its `authenticate` block and its connection test, with their
 * expressions resolved by n8n-workflow's own expression engine, sent to the sandbox over HTTP.
 */
const path = require('node:path');
const { resolveCredentialExpression: resolve, DIST } = require('../engine/n8n-core');
const { startSandbox } = require('../../dev/sandbox');

const { DynamicQrApi } = require(path.join(DIST, 'credentials/DynamicQrApi.credentials.js'));

const credential = new DynamicQrApi();

/** Sends the credential's test request the way n8n's credential tester does, and applies its rules. */
async function testConnection(credentials) {
	const { request, rules } = credential.test;
	const headers = {};
	for (const [name, value] of Object.entries(credential.authenticate.properties.headers)) {
		headers[name] = resolve(value, credentials);
	}
	const response = await fetch(`${resolve(request.baseURL, credentials)}${request.url}`, {
		headers,
	});
	if (response.ok) return { status: 'OK', httpStatus: response.status };
	const rule = rules.find((candidate) => candidate.properties.value === response.status);
	return { status: 'Error', httpStatus: response.status, message: rule?.properties.message };
}

describe('Dynamic QR API credential', () => {
	let sandbox;
	beforeAll(async () => {
		sandbox = await startSandbox({ port: 0 });
	});
	afterAll(async () => {
		await sandbox.close();
	});

	it('is named as n8n and the nodes expect', () => {
		expect(credential.name).toBe('dynamicQrApi');
		expect(credential.displayName).toBe('Dynamic QR API');
		expect(credential.documentationUrl).toMatch(/^https:\/\/.+#credentials$/);
		expect(credential.icon).toEqual({
			light: expect.stringMatching(/\.svg$/),
			dark: expect.stringMatching(/\.dark\.svg$/),
		});
	});

	it('keeps the API key in a required password field that explains keys', () => {
		const apiKey = credential.properties.find((property) => property.name === 'apiKey');
		expect(apiKey).toMatchObject({
			type: 'string',
			required: true,
			typeOptions: { password: true },
		});
		expect(apiKey.description).toContain('api_');
		expect(apiKey.description).toMatch(/read-only/);
		expect(apiKey.description).toMatch(/developer settings/);
	});

	it('asks for a required base URL ending in /api/v1', () => {
		const baseUrl = credential.properties.find((property) => property.name === 'baseUrl');
		expect(baseUrl).toMatchObject({ type: 'string', required: true });
		expect(baseUrl.placeholder).toMatch(/^e\.g\. https:\/\/.+\/api\/v1$/);
	});

	it('sends the key as a Bearer token', () => {
		const headers = credential.authenticate.properties.headers;
		expect(resolve(headers.Authorization, { apiKey: 'api_abc' })).toBe('Bearer api_abc');
	});

	it('passes the connection test with read-write and read-only keys, trailing slash or not', async () => {
		for (const apiKey of [sandbox.keys.readWrite, sandbox.keys.readOnly]) {
			expect(await testConnection({ apiKey, baseUrl: sandbox.baseUrl })).toEqual({
				status: 'OK',
				httpStatus: 200,
			});
			expect(await testConnection({ apiKey, baseUrl: `${sandbox.baseUrl}/` })).toEqual({
				status: 'OK',
				httpStatus: 200,
			});
		}
		const requests = await sandbox.control('GET', '/requests');
		expect(requests.data.filter((entry) => entry.path === '/me')).toHaveLength(4);
	});

	it('explains a wrong or revoked key', async () => {
		for (const apiKey of ['api_wrong', sandbox.keys.revoked]) {
			const result = await testConnection({ apiKey, baseUrl: sandbox.baseUrl });
			expect(result).toMatchObject({ status: 'Error', httpStatus: 401 });
			expect(result.message).toMatch(/API key was refused/);
		}
	});

	it('explains a plan without API access', async () => {
		const result = await testConnection({ apiKey: sandbox.keys.noApi, baseUrl: sandbox.baseUrl });
		expect(result).toMatchObject({ status: 'Error', httpStatus: 403 });
		expect(result.message).toMatch(/no API access/);
	});

	it('explains a base URL that is not the API root', async () => {
		const result = await testConnection({
			apiKey: sandbox.keys.readWrite,
			baseUrl: sandbox.siteUrl,
		});
		expect(result).toMatchObject({ status: 'Error', httpStatus: 404 });
		expect(result.message).toMatch(/must be the API root, ending in \/api\/v1/);
	});
});
