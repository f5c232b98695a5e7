'use strict';
/**
 * Helpers of the end-to-end suite: the workflows of the suite (built with the one workflow
 * builder, dev/n8n/workflow-builder.js), direct calls to the sandbox's API (through the one
 * sandbox client, dev/sandbox/client.js) and forged deliveries. A local HTTP receiver (stands in
 * for a chat or CRM webhook) is dev/http-recorder.js.
 */
const path = require('node:path');

const { waitFor } = require('../../dev/wait-for');
const { CREDENTIAL_NAME } = require('../../dev/examples');
const { DIST } = require('../../dev/paths');
const { sandboxClient } = require('../../dev/sandbox/client');
const {
	TYPES,
	node,
	dynamicQr,
	credentialRef,
	resourceId,
	chain,
	workflow,
} = require('../../dev/n8n/workflow-builder');
const { sign, randomSecret } = require('../support/sign');

const { fieldParameterName, mixedParameterName } = require(
	path.join(DIST, 'nodes/DynamicQr/actions/payload/names.js'),
);
const { REFUSED_FOR_MS } = require(path.join(DIST, 'nodes/DynamicQr/trigger/refusals.js'));

/** A direct request to the sandbox's API with a key (test setup only; the nodes are what is tested). */
function sandboxApi(sandbox, method, apiPath, body, key = sandbox.keys.readWrite) {
	return sandboxClient(sandbox, key).call(method, apiPath, body);
}

// ---------------------------------------------------------------------------------------------
// Workflows (built with dev/n8n/workflow-builder.js)

const manualTrigger = () => node(TYPES.manualTrigger, {}, { name: 'Start' });
const noOp = (name) => node(TYPES.noOp, {}, { name });
const qrNode = (name, parameters) => dynamicQr(parameters, { name });

/**
 * The sandbox's webhook endpoints for a URL, once there are `count` of them. n8n 2.x applies
 * (un)publishing asynchronously; the wait is bounded and the count is what is asserted.
 */
const endpointsAt = (sandbox, url, count, { timeoutMs = 30000 } = {}) =>
	waitFor(
		async () => {
			const found = (await sandbox.control('GET', '/webhooks')).data.filter(
				(endpoint) => endpoint.url === url,
			);
			return found.length === count ? found : null;
		},
		{ what: `${count} webhook endpoint(s) for ${url} at the sandbox`, timeoutMs },
	);

/** Items from a JSON list: a Set node in raw mode and a Split Out node. */
function listNodes(rows) {
	return [
		node(
			TYPES.set,
			{ mode: 'raw', jsonOutput: JSON.stringify({ rows }), options: {} },
			{ name: 'List', typeVersion: 3.4 },
		),
		node(TYPES.splitOut, { fieldToSplitOut: 'rows', options: {} }, { name: 'One item per row' }),
	];
}

/** The nodes one after another, in the order given. */
const inOrder = (name, nodes) => workflow(name, nodes, chain(...nodes.map((each) => each.name)));

/** Start → one item per row → QR Code › Create of a URL code per row, at default settings. */
function bulkCreateWorkflow(name, rows) {
	const create = qrNode('Create QR code', {
		resource: 'qrCode',
		operation: 'create',
		name: '={{ $json.name }}',
		type: 'url',
		payload_url_url: '={{ $json.url }}',
	});
	const nodes = [manualTrigger(), ...listNodes(rows), create];
	return inOrder(name, nodes);
}

/**
 * Start → one item per row → QR Code › Update of each row's `id` with its `name`, `subject`
 * (an email code's payload field) and `design`, at default settings.
 */
function updateRowsWorkflow(name, rows) {
	const update = qrNode('Update QR code', {
		resource: 'qrCode',
		operation: 'update',
		qrCodeId: { __rl: true, mode: 'id', value: '={{ $json.id }}' },
		updateFields: { name: '={{ $json.name }}', design: '={{ $json.design }}' },
		payloadInput: 'fields',
		type: 'email',
		[fieldParameterName('email', 'subject')]: '={{ $json.subject }}',
	});
	return inOrder(name, [manualTrigger(), ...listNodes(rows), update]);
}

/**
 * One sample code of each of the 14 types, entered the way a user fills the node's per-type
 * fields (fieldParameterName: `payload_<type>_<field>`), with what the sandbox must then store.
 */
const TYPE_SAMPLES = {
	url: { fields: { url: 'https://example.com/e2e' }, destination: 'https://example.com/e2e' },
	whatsapp: { fields: { phone: '+14155550123', message: 'Hello from the flyer' } },
	phone: { fields: { phone: '+14155550123' }, destination: 'tel:+14155550123' },
	email: { fields: { email: 'hello@example.com', subject: 'Flyer', body: 'Hi there' } },
	sms: { fields: { phone: '+14155550123', message: 'STOP' } },
	maps: { fields: { query: 'Brandenburg Gate, Berlin' } },
	google_review: { fields: { place_id: 'ChIJN1t_tDeuEmsRUsoyG83frY4' } },
	link_bio: {
		fields: { title: 'Our links', description: 'Everything in one place' },
		links: [{ title: 'Shop', url: 'https://example.com/shop' }],
	},
	menu: {
		fields: { title: 'Lunch', menu_url: 'https://example.com/menu' },
		destination: 'https://example.com/menu',
	},
	app_store: {
		fields: {
			ios_url: 'https://apps.apple.com/app/id123456',
			android_url: 'https://play.google.com/store/apps/details?id=com.example',
			fallback_url: 'https://example.com/app',
		},
		destination: 'https://example.com/app',
	},
	event: {
		fields: {
			title: 'Launch party',
			starts_at: '2030-05-01T18:00:00Z',
			location: 'Berlin',
			url: 'https://example.com/launch',
		},
	},
	coupon: {
		fields: {
			title: '10% off',
			code: 'SPRING10',
			expires_at: '2030-06-30',
			url: 'https://example.com/coupon',
		},
	},
	social: {
		fields: { platform: 'instagram', handle: 'example.shop' },
		destination: 'https://www.instagram.com/example.shop',
	},
	file: {
		fields: { title: 'Manual', file_url: 'https://example.com/manual.pdf' },
		destination: 'https://example.com/manual.pdf',
	},
};

/** Start → one Create node per type ("Create <type>"), all in parallel. */
function createAllTypesWorkflow(prefix) {
	const creates = Object.entries(TYPE_SAMPLES).map(([type, sample]) => {
		const parameters = {
			resource: 'qrCode',
			operation: 'create',
			name: `${prefix} ${type}`,
			type,
			payloadInput: 'fields',
		};
		for (const [field, value] of Object.entries(sample.fields))
			parameters[fieldParameterName(type, field)] = value;
		if (sample.links) parameters[fieldParameterName(type, 'links')] = { link: sample.links };
		parameters.additionalFields = { tags: 'e2e, all-types', folder: 'E2E' };
		return qrNode(`Create ${type}`, parameters);
	});
	return workflow(
		`E2E: create every type`,
		[manualTrigger(), ...creates],
		chain(
			'Start',
			creates.map((create) => create.name),
		),
	);
}

/**
 * The whole life of codes, one node per operation, every node handling every code:
 * Get → Update → Pause → Resume → Download PNG, SVG, PDF, EPS → Get Scan Statistics → Delete.
 */
function lifecycleWorkflow(ids) {
	const id = resourceId('={{ $json.id }}');
	const download = (format, extra = {}) =>
		qrNode(`Download ${format.toUpperCase()}`, {
			resource: 'qrCode',
			operation: 'downloadImage',
			qrCodeId: id,
			format,
			binaryPropertyName: 'data',
			...extra,
		});
	const nodes = [
		manualTrigger(),
		...listNodes(ids.map((value) => ({ id: value }))),
		qrNode('Get', { resource: 'qrCode', operation: 'get', qrCodeId: id, simplify: false }),
		qrNode('Update', {
			resource: 'qrCode',
			operation: 'update',
			qrCodeId: id,
			updateFields: { name: '={{ $json.name }} (updated)' },
			payloadInput: 'none',
		}),
		qrNode('Pause', { resource: 'qrCode', operation: 'pause', qrCodeId: id }),
		qrNode('Resume', { resource: 'qrCode', operation: 'resume', qrCodeId: id }),
		download('png', { sizeUnit: 'pixels', size: 400 }),
		download('svg'),
		download('pdf'),
		download('eps', { sizeUnit: 'mm', mm: 50, dpi: 300 }),
		qrNode('Scans', {
			resource: 'qrCode',
			operation: 'getScans',
			qrCodeId: id,
			output: 'statistics',
		}),
		qrNode('Delete', {
			resource: 'qrCode',
			operation: 'delete',
			qrCodeId: resourceId('={{ $json.qr_code_id }}'),
		}),
	];
	return inOrder('E2E: life of a code', nodes);
}

/** Rows of four types (one by its label), as a sheet holds them: one column per payload field. */
const MIXED_TYPE_ROWS = [
	{ name: 'site', type: 'url', url: 'https://example.com/mixed' },
	{ name: 'call', type: 'phone', phone: '+14155550123' },
	{ name: 'mail', type: 'Email', email: 'mixed@example.com' },
	{
		name: 'bio',
		type: 'link_bio',
		title: 'Links',
		links: JSON.stringify([{ title: 'Shop', url: 'https://example.com/shop' }]),
	},
];
/** The [type, payload] of the code each of MIXED_TYPE_ROWS makes. */
const MIXED_TYPE_CODES = [
	['url', { url: 'https://example.com/mixed' }],
	['phone', { phone: '+14155550123' }],
	['email', { email: 'mixed@example.com' }],
	['link_bio', { title: 'Links', links: [{ title: 'Shop', url: 'https://example.com/shop' }] }],
];

/**
 * Start → rows of mixed types → Create with Type from each row, once with the mixed-type fields
 * mapped by name and once with the per-type fields (only URL's and Phone Call's filled in), both
 * at version 1; with `version2`, once more with version 2's Payload Fields.
 */
function mixedTypesWorkflow(prefix, rows, { version2 = true } = {}) {
	const common = {
		resource: 'qrCode',
		operation: 'create',
		name: `={{ "${prefix} " + $json.name }}`,
		type: '={{ $json.type }}',
	};
	const byName = qrNode('Mixed fields', {
		...common,
		payloadInput: 'mixed',
		...Object.fromEntries(
			['url', 'phone', 'email', 'title', 'links'].map((field) => [
				mixedParameterName(field),
				`={{ $json.${field} }}`,
			]),
		),
	});
	const perType = qrNode('Per-type fields', {
		...common,
		name: `={{ "${prefix} per-type " + $json.name }}`,
		payloadInput: 'fields',
		[fieldParameterName('url', 'url')]: '={{ $json.url }}',
		[fieldParameterName('phone', 'phone')]: '={{ $json.phone }}',
	});
	perType.onError = 'continueRegularOutput';
	// Version 2: the same fields as options of one collection.
	const collected = dynamicQr(
		{
			...common,
			name: `={{ "${prefix} v2 " + $json.name }}`,
			payloadInput: 'mixed',
			mixedPayload: Object.fromEntries(
				['url', 'phone', 'email', 'title', 'links'].map((field) => [
					field,
					`={{ $json.${field} }}`,
				]),
			),
		},
		{ name: 'Payload Fields (v2)', typeVersion: 2 },
	);
	const creates = version2 ? [byName, perType, collected] : [byName, perType];
	return workflow(
		'E2E: mixed types',
		[manualTrigger(), ...listNodes(rows), ...creates],
		chain(
			'Start',
			'List',
			'One item per row',
			creates.map((create) => create.name),
		),
	);
}

/** Start → Get Many with Return All (and a search, so only the codes of this test count). */
function getManyWorkflow(search) {
	const nodes = [
		manualTrigger(),
		qrNode('Get Many', {
			resource: 'qrCode',
			operation: 'getAll',
			returnAll: true,
			filters: { search },
			simplify: true,
		}),
	];
	return workflow('E2E: get many, return all', nodes, chain('Start', 'Get Many'));
}

/** Dynamic QR Trigger on scans and leads → No Operation (the items stay in the execution). */
function triggerWorkflow(events, filters = {}) {
	const nodes = [
		node(
			TYPES.dynamicQrTrigger,
			{ endpointMode: 'automatic', events, filters },
			{
				name: 'Dynamic QR Trigger',
				credentials: credentialRef('dynamicQrApi', CREDENTIAL_NAME),
				webhookId: 'set-by-createWorkflow',
			},
		),
		noOp('Received'),
	];
	return workflow('E2E: trigger', nodes, chain('Dynamic QR Trigger', 'Received'));
}

/**
 * Dynamic QR Polling Trigger (every minute; `parameters`: its event and the event's fields) →
 * No Operation.
 */
function pollingTriggerWorkflow(name, parameters) {
	const nodes = [
		node(
			TYPES.dynamicQrPollingTrigger,
			{ pollTimes: { item: [{ mode: 'everyMinute' }] }, ...parameters },
			{
				name: 'Dynamic QR Polling Trigger',
				credentials: credentialRef('dynamicQrApi', CREDENTIAL_NAME),
			},
		),
		noOp('Received'),
	];
	return workflow(name, nodes, chain('Dynamic QR Polling Trigger', 'Received'));
}

/**
 * Dynamic QR Trigger version 2 for an endpoint created in the dashboard (its secret in the
 * named signing-secret credential) → No Operation; `webhookId` is the one the endpoint's URL uses.
 */
function dashboardTriggerWorkflow(webhookId, credentialName) {
	const nodes = [
		node(
			TYPES.dynamicQrTrigger,
			{ endpointMode: 'dashboard', events: ['scan.created'], filters: {} },
			{
				name: 'Dynamic QR Trigger',
				typeVersion: 2,
				webhookId,
				credentials: credentialRef('dynamicQrSigningSecretApi', credentialName),
			},
		),
		noOp('Received'),
	];
	return workflow('E2E: dashboard trigger v2', nodes, chain('Dynamic QR Trigger', 'Received'));
}

/**
 * POSTs `body` to a webhook URL with a Standard Webhooks signature made with a random secret;
 * `headers` are sent as well.
 */
async function postForged(url, body, headers = {}) {
	const webhookId = `msg_forged${Date.now()}`;
	const timestamp = Math.floor(Date.now() / 1000);
	return fetch(url, {
		method: 'POST',
		headers: {
			...headers,
			'content-type': 'application/json',
			'webhook-id': webhookId,
			'webhook-timestamp': String(timestamp),
			'webhook-signature': sign(randomSecret(), webhookId, timestamp, body),
		},
		body,
	});
}

/**
 * Forged deliveries refused long enough to be reported (trigger/refusals.ts): one answered 401 as
 * a moment's refusal, then, REFUSED_FOR_MS later, the one that fails an execution. Answers both.
 */
async function postForgedUntilSeen(url, body, headers = {}) {
	const first = await postForged(url, body, headers);
	await new Promise((resolve) => setTimeout(resolve, REFUSED_FOR_MS));
	return [first.status, (await postForged(url, body, headers)).status];
}

module.exports = {
	listNodes,
	noOp,
	endpointsAt,
	dashboardTriggerWorkflow,
	postForged,
	postForgedUntilSeen,
	REFUSED_FOR_MS,
	TYPE_SAMPLES,
	bulkCreateWorkflow,
	updateRowsWorkflow,
	sandboxApi,
	createAllTypesWorkflow,
	MIXED_TYPE_CODES,
	MIXED_TYPE_ROWS,
	mixedTypesWorkflow,
	lifecycleWorkflow,
	getManyWorkflow,
	triggerWorkflow,
	pollingTriggerWorkflow,
};
