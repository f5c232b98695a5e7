'use strict';

const util = require('node:util');
const { startSandbox } = require('../../dev/sandbox');
const { sandboxClient } = require('../../dev/sandbox/client');
const { runNode } = require('../engine');
const { decodePng } = require('../../dev/qr-image');

/** QR Code › Create of a URL code from each item's `name` and `url`. */
const CREATE_FROM_ITEMS = {
	resource: 'qrCode',
	operation: 'create',
	name: '={{ $json.name }}',
	type: 'url',
	payload_url_url: '={{ $json.url }}',
};

/**
 * One sandbox per test file, and a `run` that executes the node through the engine and keeps
 * every result, so that each file can finally check that no output or error holds an API key.
 */
function useSandbox(options = {}) {
	const context = { results: [] };

	beforeAll(async () => {
		context.sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 60000, ...options });
		context.keys = context.sandbox.keys;
	});
	afterAll(async () => {
		await context.sandbox?.close();
	});

	context.credentials = (key = 'readWrite', baseUrl = context.sandbox.baseUrl) => ({
		apiKey: context.keys[key],
		baseUrl,
	});

	/** Runs the node; `key` picks a sandbox key (default read-write). */
	context.run = async (parameters, { key, credentials, ...rest } = {}) => {
		const result = await runNode({
			parameters,
			credentials: credentials ?? context.credentials(key),
			...rest,
		});
		context.results.push(result);
		return result;
	};

	/** QR Code › Create of `count` URL codes named `<prefix> <index>`, one per input item. */
	context.createMany = (count, prefix, requestOptions = {}) =>
		context.run(
			{ ...CREATE_FROM_ITEMS, requestOptions },
			{
				items: Array.from({ length: count }, (_, index) => ({
					json: { name: `${prefix} ${index}`, url: `https://example.com/${prefix}/${index}` },
				})),
			},
		);

	/** Logo › Upload of a small SVG through the node; resolves with the upload's id. */
	context.uploadLogo = async () => {
		const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64');
		const data = { base64: svg, mimeType: 'image/svg+xml', fileName: 'logo.svg' };
		const logo = await context.run(
			{ resource: 'logo', operation: 'upload' },
			{ items: [{ json: {}, binary: { data } }] },
		);
		return logo.items[0].json.id;
	};

	context.control = (...args) => context.sandbox.control(...args);
	/** The plan's rate limit: requests per minute and the bucket's burst. */
	context.setPlan = (rateLimitPerMinute, rateLimitBurst) =>
		context.control('POST', '/config', { rateLimitPerMinute, rateLimitBurst });
	/** `count` URL codes "Seed <index>" created straight through the API (not the node), in order. */
	context.seed = async (count) => {
		const ids = [];
		for (let i = 0; i < count; i++) {
			const created = await sandboxClient(context.sandbox).call('POST', '/qr-codes', {
				name: `Seed ${i}`,
				type: 'url',
				payload: { url: `https://example.com/seed/${i}` },
			});
			ids.push(created.data.id);
		}
		return ids;
	};
	context.requests = async () => (await context.control('GET', '/requests')).data;
	context.allCodes = async () => (await context.control('GET', '/qr-codes')).data;

	/** Every byte a user or a log could see: outputs, errors with their causes, the whole run. */
	context.expectNoKeyLeak = () => {
		const everything = context.results
			.map((result) => {
				const error = result.error;
				return [
					JSON.stringify(result.run),
					util.inspect(result.run, { depth: 30, showHidden: true }),
					error ? util.inspect(error, { depth: 30, showHidden: true }) : '',
					error ? JSON.stringify(error) : '',
				].join('\n');
			})
			.join('\n');
		expect(context.results.length).toBeGreaterThan(0);
		for (const key of Object.values(context.keys)) {
			expect(everything.includes(key)).toBe(false);
		}
	};

	return context;
}

/** Decodes a PNG buffer's QR code to its text. */
const decodeQr = (buffer) => decodePng(buffer).text;

const jsonOf = (items) => items.map((item) => item.json);

module.exports = {
	CREATE_FROM_ITEMS,
	useSandbox,
	decodeQr,
	jsonOf,
};
