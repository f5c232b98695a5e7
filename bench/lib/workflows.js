'use strict';
/**
 * Workflow JSON for every bench case: our nodes, and n8n's own nodes doing the same requests
 * (HTTP Request `n8n-nodes-base.httpRequest` v4.2, Webhook `n8n-nodes-base.webhook` v2).
 *
 * HTTP Request parameters follow packages/nodes-base/nodes/HttpRequest/V3/Description.ts of
 * n8n (the node behind every 4.x version): a generic Bearer credential (`httpBearerAuth`),
 * a JSON body, an `Idempotency-Key` header, `options.batching.batch.{batchSize,batchInterval}`,
 * `options.pagination.pagination.*`; Retry On Fail is a node setting (`retryOnFail`,
 * `maxTries`, `waitBetweenTries`).
 */
const { randomUUID } = require('node:crypto');

const { TYPES, node, removeDuplicatesOnWebhookId, credentialRef, resourceId, connect, chain, workflow: buildWorkflow } = require('../../dev/n8n/workflow-builder');

const HTTP_REQUEST_VERSION = 4.2;

/** Node names the cases read from the execution's runData. */
const NAMES = {
	start: 'Start',
	items: 'Make items',
	ours: 'Dynamic QR',
	http: 'HTTP Request',
	split: 'Split Out',
	trigger: 'Trigger',
	done: 'Done',
};

/** The nodes one after another, in the order given. */
const workflow = (name, nodes) => buildWorkflow(name, nodes, chain(...nodes.map((n) => n.name)));

const manualTrigger = () => node(TYPES.manualTrigger, {}, { name: NAMES.start, position: [0, 0] });

/**
 * A Code node emitting `count` items `{ name, url, key }`. The key is unique per execution and
 * item (`$execution.id`), so the same item carries the same Idempotency-Key in every attempt
 * of one execution (n8n's Retry On Fail included) and never collides across executions.
 */
function itemsNode(count) {
	const jsCode = [
		`const run = String($execution.id);`,
		`const out = [];`,
		`for (let i = 0; i < ${Number(count)}; i++) {`,
		`  out.push({ json: { name: \`bench \${run} #\${i}\`, url: \`https://example.com/bench/\${run}/\${i}\`, key: \`bench-\${run}-\${i}\` } });`,
		`}`,
		`return out;`,
	].join('\n');
	return node(TYPES.code, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode }, { name: NAMES.items, typeVersion: 2, position: [220, 0] });
}

/**
 * `BENCH_FIXED_WINDOW=N` (read by the bench only, never by the node): every variant of our node
 * "at default settings" runs with Concurrent Requests N, which makes its requests in flight a
 * fixed window of N instead of the adaptive one, so any case can be measured both ways.
 */
function fixedWindow() {
	const raw = process.env.BENCH_FIXED_WINDOW;
	if (raw === undefined || raw === '') return undefined;
	const n = Number(raw);
	if (!Number.isInteger(n) || n < 1 || n > 20) throw new Error(`BENCH_FIXED_WINDOW takes 1 to 20, not ${raw}`);
	return n;
}

/**
 * Our node's Request Options: Concurrent Requests `concurrency` when given; `null` = none (the
 * adaptive window) whatever BENCH_FIXED_WINDOW says; undefined = BENCH_FIXED_WINDOW's, if set.
 */
function requestOptionsOf(concurrency) {
	const n = concurrency === undefined ? fixedWindow() : concurrency;
	return n ? { concurrency: n } : {};
}

/** Our node, QR Code > Create, a URL code per item, the item's key as Idempotency Key. */
function bulkOurs({ count, credential, concurrency, label }) {
	const requestOptions = requestOptionsOf(concurrency);
	return workflow(`bench: bulk create, ${label}`, [
		manualTrigger(),
		itemsNode(count),
		node(
			TYPES.dynamicQr,
			{
				resource: 'qrCode',
				operation: 'create',
				name: '={{ $json.name }}',
				payloadInput: 'fields',
				type: 'url',
				payload_url_url: '={{ $json.url }}',
				additionalFields: { idempotencyKey: '={{ $json.key }}' },
				requestOptions,
			},
			{ name: NAMES.ours, position: [440, 0], credentials: credentialRef('dynamicQrApi', credential) },
		),
	]);
}

/** The same POST /qr-codes from n8n's HTTP Request node: Bearer, JSON body, Idempotency-Key. */
function bulkHttp({ count, baseUrl, bearer, batching, retry, label }) {
	const options = batching
		? { batching: { batch: { batchSize: batching.batchSize, batchInterval: batching.batchInterval } } }
		: {};
	const settings = retry
		? { retryOnFail: true, maxTries: retry.maxTries, waitBetweenTries: retry.waitBetweenTries }
		: {};
	return workflow(`bench: bulk create, ${label}`, [
		manualTrigger(),
		itemsNode(count),
		node(
			TYPES.httpRequest,
			{
				method: 'POST',
				url: `${baseUrl}/qr-codes`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				sendHeaders: true,
				specifyHeaders: 'keypair',
				headerParameters: { parameters: [{ name: 'Idempotency-Key', value: '={{ $json.key }}' }] },
				sendBody: true,
				contentType: 'json',
				specifyBody: 'json',
				jsonBody: '={{ JSON.stringify({ name: $json.name, type: "url", payload: { url: $json.url } }) }}',
				options,
			},
			{
				name: NAMES.http,
				typeVersion: HTTP_REQUEST_VERSION,
				position: [440, 0],
				credentials: credentialRef('httpBearerAuth', bearer),
				...settings,
			},
		),
	]);
}

/** The lists case 2 reads: our node's resource and its parameters, and the API path. */
const LISTS = {
	codes: { resource: 'qrCode', path: '/qr-codes', parameters: () => ({ filters: {} }) },
	leads: {
		resource: 'lead',
		path: (cardId) => `/cards/${cardId}/leads`,
		parameters: (cardId) => ({ cardId: resourceId(cardId), filters: {} }),
	},
	endpoints: { resource: 'webhookEndpoint', path: '/webhooks', parameters: () => ({}) },
};

const listPath = (list, cardId) => (typeof LISTS[list].path === 'function' ? LISTS[list].path(cardId) : LISTS[list].path);

/**
 * Our node, Get Many with Return All of `list` (QR codes by default; Simplify on = the node's
 * default, codes only).
 */
function returnAllOurs({ credential, simplify, label, list = 'codes', cardId, concurrency }) {
	const { resource, parameters } = LISTS[list];
	const requestOptions = requestOptionsOf(concurrency);
	return workflow(`bench: return all, ${label}`, [
		manualTrigger(),
		node(
			TYPES.dynamicQr,
			{
				resource,
				operation: 'getAll',
				returnAll: true,
				...parameters(cardId),
				...(simplify === undefined ? {} : { simplify }),
				...(Object.keys(requestOptions).length ? { requestOptions } : {}),
			},
			{ name: NAMES.ours, position: [220, 0], credentials: credentialRef('dynamicQrApi', credential) },
		),
	]);
}

/**
 * HTTP Request with pagination (Update a Parameter in Each Request: `page` = `$pageCount + 1`,
 * `per_page=100`, complete when the last page is reached), the way n8n's docs page through a
 * page-numbered API. It outputs one item per page; with `splitOut` a Split Out node turns the
 * pages' `data` arrays into one item per record, as our node outputs them.
 */
function returnAllHttp({ baseUrl, bearer, splitOut, label, list = 'codes', cardId }) {
	const nodes = [
		manualTrigger(),
		node(
			TYPES.httpRequest,
			{
				method: 'GET',
				url: `${baseUrl}${listPath(list, cardId)}`,
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'per_page', value: '100' }] },
				options: {
					pagination: {
						pagination: {
							paginationMode: 'updateAParameterInEachRequest',
							parameters: { parameters: [{ type: 'qs', name: 'page', value: '={{ $pageCount + 1 }}' }] },
							paginationCompleteWhen: 'other',
							completeExpression: '={{ $response.body.meta.current_page >= $response.body.meta.last_page }}',
							limitPagesFetched: false,
							requestInterval: 0,
						},
					},
				},
			},
			{ name: NAMES.http, typeVersion: HTTP_REQUEST_VERSION, position: [220, 0], credentials: credentialRef('httpBearerAuth', bearer) },
		),
	];
	if (splitOut) {
		nodes.push(
			node(TYPES.splitOut, { fieldToSplitOut: 'data', include: 'noOtherFields', options: {} }, { name: NAMES.split, position: [440, 0] }),
		);
	}
	return workflow(`bench: return all, ${label}`, nodes);
}

const doneNode = (x) => node(TYPES.noOp, {}, { name: NAMES.done, position: [x, 0] });

/**
 * Our trigger in "Created in the Dashboard" mode. Version 1 holds the signing secret in a node
 * parameter; version 2 in a credential (`credential`: `{ id, name }` of a
 * dynamicQrSigningSecretApi credential).
 */
function triggerOurs({ secret, webhookId, version = 1, credential }) {
	const parameters = { endpointMode: 'dashboard', events: ['scan.created'], filters: {} };
	if (version === 1) parameters.signingSecret = secret;
	return workflow(`bench: trigger, Dynamic QR Trigger v${version}`, [
		node(TYPES.dynamicQrTrigger, parameters, {
			name: NAMES.trigger,
			typeVersion: version,
			position: [0, 0],
			webhookId,
			...(version === 1 ? {} : { credentials: credentialRef('dynamicQrSigningSecretApi', credential) }),
		}),
		doneNode(220),
	]);
}

/**
 * n8n's Webhook node on POST, answering when received, no verification. `typeVersion` 2 is
 * what the editor adds today; 1 is the control that pays n8n's per-request expression isolate.
 */
function triggerWebhook({ path, webhookId, typeVersion = 2 }) {
	return workflow(`bench: trigger, n8n Webhook node v${typeVersion}`, [
		node(
			TYPES.webhook,
			{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			{ name: NAMES.trigger, typeVersion, position: [0, 0], webhookId },
		),
		doneNode(220),
	]);
}

/**
 * What a careful user builds from n8n's own nodes for the trigger's promises: the Webhook node (v2,
 * answering on receipt) → a Code node that checks the Standard Webhooks signature with node:crypto
 * (constant-time, 300 s tolerance; needs NODE_FUNCTION_ALLOW_BUILTIN=crypto) → Remove Duplicates on
 * `webhook-id` across executions → No Operation. The Code node signs the body as n8n parsed it,
 * re-serialised (the bench's bodies are JSON.stringify output, so it matches the raw body): a
 * shortcut that only makes this workflow cheaper.
 */
function triggerCareful({ path, webhookId, secret }) {
	const jsCode = [
		"const crypto = require('crypto');",
		`const key = Buffer.from(${JSON.stringify(secret.slice('whsec_'.length))}, 'base64');`,
		'return $input.all().map((item) => {',
		'\tconst headers = item.json.headers;',
		"\tconst id = headers['webhook-id'];",
		"\tconst timestamp = headers['webhook-timestamp'];",
		'\tif (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error(\'Delivery too old\');',
		'\tconst signed = `${id}.${timestamp}.${JSON.stringify(item.json.body)}`;',
		"\tconst expected = Buffer.from(crypto.createHmac('sha256', key).update(signed).digest('base64'));",
		"\tconst valid = String(headers['webhook-signature']).split(' ').some((entry) => {",
		"\t\tconst given = Buffer.from(entry.slice(entry.indexOf(',') + 1));",
		"\t\treturn entry.startsWith('v1,') && given.length === expected.length && crypto.timingSafeEqual(given, expected);",
		'\t});',
		"\tif (!valid) throw new Error('Invalid signature');",
		'\treturn { json: { webhook_id: id, ...item.json.body } };',
		'});',
	].join('\n');
	return workflow('bench: trigger, Webhook → Code (signature) → Remove Duplicates', [
		node(
			TYPES.webhook,
			{ httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
			{ name: NAMES.trigger, typeVersion: 2, position: [0, 0], webhookId },
		),
		node(TYPES.code, { jsCode }, { name: 'Verify signature', typeVersion: 2, position: [220, 0] }),
		removeDuplicatesOnWebhookId({ name: 'Remove Duplicates', position: [440, 0] }),
		doneNode(660),
	]);
}

/** Production webhook paths: a trigger with a fixed `path` uses `<webhookId>/<path>`. */
const webhookPaths = {
	ours: (webhookId) => `webhook/${webhookId}/webhook`,
	webhookNode: (path) => `webhook/${path}`,
};

/**
 * A Code node emitting the sheet of the sync case: `count` rows `{ name, url }` named
 * `sync 0000` …, the rows at `changed` pointing to a new URL (`…/v2`).
 */
function syncRowsNode({ count, changed }) {
	const jsCode = [
		`const changed = new Set(${JSON.stringify(changed)});`,
		`return Array.from({ length: ${Number(count)} }, (_, i) => ({ json: {`,
		`  name: 'sync ' + String(i).padStart(4, '0'),`,
		`  url: 'https://example.com/sync/' + i + (changed.has(i) ? '/v2' : ''),`,
		`} }));`,
	].join('\n');
	return node(TYPES.code, { mode: 'runOnceForAllItems', language: 'javaScript', jsCode }, { name: NAMES.items, typeVersion: 2, position: [220, 0] });
}

/** Our node, QR Code > Create or Update by name, a URL code per row. */
function syncOurs({ rows, credential }) {
	return workflow('bench: sync, Dynamic QR Create or Update', [
		manualTrigger(),
		syncRowsNode(rows),
		node(
			TYPES.dynamicQr,
			{
				resource: 'qrCode',
				operation: 'upsert',
				matchBy: 'name',
				name: '={{ $json.name }}',
				type: 'url',
				payloadInput: 'fields',
				payload_url_url: '={{ $json.url }}',
			},
			{ name: NAMES.ours, position: [440, 0], credentials: credentialRef('dynamicQrApi', credential) },
		),
	]);
}

const SYNC_HTTP = { search: 'Search', found: 'Found?', changed: 'Changed?', update: 'Update', create: 'Create' };
const SYNC_HTTP_NODES = Object.values(SYNC_HTTP);

/** An IF node (v2) on one boolean expression. */
function ifNode(name, expression, position) {
	return node(
		TYPES.if,
		{
			conditions: {
				options: { caseSensitive: true, leftValue: '', typeValidation: 'strict' },
				conditions: [
					{ id: randomUUID(), leftValue: `={{ ${expression} }}`, rightValue: '', operator: { type: 'boolean', operation: 'true', singleValue: true } },
				],
				combinator: 'and',
			},
			options: {},
		},
		{ name, typeVersion: 2, position },
	);
}

/**
 * The sync without Create or Update, as a user builds it from n8n's nodes: per row an HTTP
 * Request search by name, an IF on whether a code of exactly that name came back, an IF on
 * whether its URL differs, then an HTTP Request PATCH (found and changed) or POST (not found).
 * Every HTTP Request has n8n's batching (the plan's rate) and Retry On Fail, without which 1,000
 * requests at once meet 429s (case 1).
 */
function syncHttp({ rows, baseUrl, bearer, batching, retry }) {
	const row = "$('Make items').item.json";
	const match = `$('${SYNC_HTTP.search}').item.json.data.find((code) => code.name === ${row}.name)`;
	const http = (name, parameters, position) =>
		node(
			TYPES.httpRequest,
			{
				authentication: 'genericCredentialType',
				genericAuthType: 'httpBearerAuth',
				...parameters,
				options: { batching: { batch: { batchSize: batching.batchSize, batchInterval: batching.batchInterval } } },
			},
			{
				name,
				typeVersion: HTTP_REQUEST_VERSION,
				position,
				credentials: credentialRef('httpBearerAuth', bearer),
				retryOnFail: true,
				maxTries: retry.maxTries,
				waitBetweenTries: retry.waitBetweenTries,
			},
		);
	const jsonBody = (fields) => ({ sendBody: true, contentType: 'json', specifyBody: 'json', jsonBody: `={{ JSON.stringify(${fields}) }}` });
	const nodes = [
		manualTrigger(),
		syncRowsNode(rows),
		http(
			SYNC_HTTP.search,
			{
				method: 'GET',
				url: `${baseUrl}/qr-codes`,
				sendQuery: true,
				specifyQuery: 'keypair',
				queryParameters: { parameters: [{ name: 'search', value: '={{ $json.name }}' }, { name: 'per_page', value: '100' }] },
			},
			[440, 0],
		),
		ifNode(SYNC_HTTP.found, `${match} !== undefined`, [660, 0]),
		ifNode(SYNC_HTTP.changed, `${match}.payload.url !== ${row}.url`, [880, -100]),
		http(SYNC_HTTP.update, { method: 'PATCH', url: `=${baseUrl}/qr-codes/{{ ${match}.id }}`, ...jsonBody(`{ payload: { url: ${row}.url } }`) }, [1100, -100]),
		http(SYNC_HTTP.create, { method: 'POST', url: `${baseUrl}/qr-codes`, ...jsonBody(`{ name: ${row}.name, type: 'url', payload: { url: ${row}.url } }`) }, [880, 100]),
	];
	return buildWorkflow(
		'bench: sync, HTTP Request search + IF + Update/Create',
		nodes,
		connect(
			[NAMES.start, NAMES.items],
			[NAMES.items, SYNC_HTTP.search],
			[SYNC_HTTP.search, SYNC_HTTP.found],
			[SYNC_HTTP.found, SYNC_HTTP.changed],
			[SYNC_HTTP.found, SYNC_HTTP.create, { output: 1 }], // IF false: not found
			[SYNC_HTTP.changed, SYNC_HTTP.update], // IF false: unchanged, nothing to do
		),
	);
}

module.exports = {
	NAMES,
	fixedWindow,
	syncOurs,
	syncHttp,
	SYNC_HTTP_NODES,
	HTTP_REQUEST_VERSION,
	bulkOurs,
	bulkHttp,
	returnAllOurs,
	returnAllHttp,
	LISTS,
	triggerOurs,
	triggerWebhook,
	triggerCareful,
	webhookPaths,
};
