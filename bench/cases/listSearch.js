'use strict';
/**
 * Case 5: the editor's searchable lists (methods/listSearch.ts), asked the way the editor asks
 * them: n8n's `POST /rest/dynamic-node-parameters/resource-locator-results`, with our
 * credential, against 10,000 codes and 2,000 webhook endpoints (same sandbox settings as case 1).
 * Time per call as the bench sees it (n8n's REST round trip included) and API requests per call.
 */
const { LISTS } = require('../lib/workflows');

const CODES = 10000;
const ENDPOINTS = 2000;
const SCROLL_PAGES = 5;

const NODE = { name: 'n8n-nodes-dynamic-qr.dynamicQr', version: 1 };

function calls() {
	const needle = `seed #${CODES - 1}`;
	return [
		{ key: 'codesFirst', label: 'QR codes: the first page (50), no filter', methodName: 'searchQrCodes', parameter: 'qrCodeId', resource: LISTS.codes.resource },
		{ key: 'codesScroll', label: `QR codes: the next ${SCROLL_PAGES} pages while scrolling (per page)`, methodName: 'searchQrCodes', parameter: 'qrCodeId', resource: LISTS.codes.resource, scroll: SCROLL_PAGES },
		{ key: 'codesSearch', label: `QR codes: filter "${needle}" (the service's search)`, methodName: 'searchQrCodes', parameter: 'qrCodeId', resource: LISTS.codes.resource, filter: needle, expect: 1 },
		{
			key: 'endpointsFilter',
			label: `Webhook endpoints: filter "bench/${ENDPOINTS - 1}" over ${ENDPOINTS.toLocaleString('en-US')} (no search at the service: the whole list at once)`,
			methodName: 'searchWebhookEndpoints',
			parameter: 'webhookEndpointId',
			resource: LISTS.endpoints.resource,
			operation: 'delete',
			filter: `bench/${ENDPOINTS - 1}`,
			expect: 1,
		},
	];
}

async function ask(n8n, credential, call, paginationToken) {
	const answer = await n8n.rest('POST', '/rest/dynamic-node-parameters/resource-locator-results', {
		nodeTypeAndVersion: NODE,
		methodName: call.methodName,
		path: `parameters.${call.parameter}`,
		currentNodeParameters: { resource: call.resource, operation: call.operation ?? 'get' },
		credentials: { dynamicQrApi: { id: credential.id, name: credential.name } },
		...(call.filter ? { filter: call.filter } : {}),
		...(paginationToken ? { paginationToken } : {}),
	});
	return answer.data ?? answer;
}

async function run({ n8n, sandbox, credentials, repeats, log }) {
	await sandbox.reset();
	await sandbox.seed(CODES);
	await sandbox.seedEndpoints(ENDPOINTS);
	log(`seeded ${CODES} codes and ${ENDPOINTS} webhook endpoints`);
	const results = {};
	const list = calls();
	for (const call of list) results[call.key] = { label: call.label, runs: [] };
	// One unmeasured call of each first (n8n loads the node's code on first use).
	for (const call of list) await ask(n8n, credentials.ours, call);

	for (let r = 0; r < repeats; r++) {
		for (const call of list) {
			const before = (await sandbox.requestCounts()).total;
			let ms;
			let found;
			if (call.scroll) {
				let token = (await ask(n8n, credentials.ours, call)).paginationToken;
				const start = (await sandbox.requestCounts()).total;
				const started = Date.now();
				found = 0;
				for (let page = 0; page < call.scroll; page++) {
					const answer = await ask(n8n, credentials.ours, call, token);
					found += answer.results.length;
					token = answer.paginationToken;
				}
				ms = (Date.now() - started) / call.scroll;
				results[call.key].runs.push({ ms, found, apiRequests: ((await sandbox.requestCounts()).total - start) / call.scroll });
				continue;
			}
			const started = Date.now();
			const answer = await ask(n8n, credentials.ours, call);
			ms = Date.now() - started;
			found = answer.results.length;
			if (call.expect !== undefined && found !== call.expect) log(`  ${call.key}: found ${found}, expected ${call.expect}`);
			results[call.key].runs.push({ ms, found, apiRequests: (await sandbox.requestCounts()).total - before });
		}
		log(`  repeat ${r + 1}: ${list.map((call) => `${call.key} ${results[call.key].runs.at(-1).ms.toFixed(0)} ms`).join(', ')}`);
	}
	return { codes: CODES, endpoints: ENDPOINTS, results };
}

module.exports = { run };
