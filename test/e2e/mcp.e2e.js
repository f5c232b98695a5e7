'use strict';
/**
 * End-to-end: the Dynamic QR tools (`n8n-nodes-dynamic-qr.dynamicQrTool`) exposed to MCP clients
 * through n8n's MCP Server Trigger (`@n8n/n8n-nodes-langchain.mcpTrigger`, version 2: streamable
 * HTTP on `<n8n>/mcp/<path>`, bearer authentication), on the current 2.x line. The client is the
 * official SDK's (`@modelcontextprotocol/sdk`), as in Claude Desktop or Cursor: it connects to the
 * production URL with the bearer token, lists the tools and calls them as an assistant would.
 *
 * One workflow, seven tool nodes (Create, Get, Get Many, Update, Download Image, Get Scan
 * Statistics, Create or Update), each with a manual description and $fromAI() inputs. The test
 * checks the tool list and schemas, the effects of each call in the sandbox, that a bad call
 * comes back as a readable tool error while the session goes on, and that no secret (API keys,
 * signing secret, bearer token) is in anything n8n sent the client.
 *
 * What n8n 2.41.1 gives the client (read from its answers, not assumed): each tool result is one
 * text block holding the JSON array of the tool's output items. Download Image answers the code's
 * id, name, short link and format only: n8n passes a tool's `json` and never its binary data, so the
 * PNG stays in the execution, as with the AI Agent. A tool that fails answers `isError: true` with
 * "NodeOperationError: <the node's message>\n\nDetails: <its description>", and the session goes on.
 * Without the bearer token n8n answers 403.
 *
 * Run with `npx jest -c jest.e2e.config.js test/e2e/mcp.e2e.js` (or all e2e: `npm run test:e2e`).
 */
const crypto = require('node:crypto');

const { Client } = require('@modelcontextprotocol/sdk/client/index.js');
const {
	StreamableHTTPClientTransport,
} = require('@modelcontextprotocol/sdk/client/streamableHttp.js');

const { N8N_VERSIONS } = require('../../dev/n8n/instance');
const { TYPES, node, credentialRef, connect, workflow } = require('../../dev/n8n/workflow-builder');
const {
	startAgentStack,
	fromAi,
	findObject,
	parseToolOutput,
	DYNAMIC_QR_CREDENTIAL,
} = require('./agent-workflow');

const MCP_PATH = 'dynamic-qr-tools';
const BEARER_CREDENTIAL = 'MCP clients (bearer)';
const SIGNING_CREDENTIAL = 'Dynamic QR signing secret';
/** The first bytes of a PNG file in base64: an image handed to the client would contain them. */
const PNG_BASE64_MAGIC = 'iVBORw0KGgo';

const qrCodeId = (description = 'The id of the QR code') => ({
	__rl: true,
	mode: 'id',
	value: fromAi('qrCodeId', description),
});

/**
 * The tool nodes: node name, what the client must see (tool name: n8n's nodeNameToToolName, any
 * other character than letters, digits, "_" and "-" becomes "_"), description and $fromAI keys.
 */
const TOOLS = [
	{
		node: 'Create QR code',
		tool: 'Create_QR_code',
		keys: ['name', 'url'],
		parameters: {
			toolDescription:
				'Creates a dynamic QR code that opens a web page. Give it a name and the URL.',
			operation: 'create',
			name: fromAi('name', 'Name of the QR code'),
			type: 'url',
			payloadInput: 'fields',
			payload_url_url: fromAi('url', 'The web page the code opens'),
			additionalFields: {},
		},
	},
	{
		node: 'Get QR code',
		tool: 'Get_QR_code',
		keys: ['qrCodeId'],
		parameters: {
			toolDescription: 'Gets one QR code by its id: name, short link, where it points, status.',
			operation: 'get',
			qrCodeId: qrCodeId(),
			simplify: true,
		},
	},
	{
		node: 'Find QR codes',
		tool: 'Find_QR_codes',
		keys: ['search'],
		parameters: {
			toolDescription: 'Lists the QR codes whose name contains the search text (at most 20).',
			operation: 'getAll',
			returnAll: false,
			limit: 20,
			filters: { search: fromAi('search', 'Text the names of the codes contain') },
			simplify: true,
		},
	},
	{
		node: 'Point QR code to URL',
		tool: 'Point_QR_code_to_URL',
		keys: ['qrCodeId', 'url'],
		parameters: {
			toolDescription:
				'Points an existing QR code to another web page. Give it the id and the new URL.',
			operation: 'update',
			qrCodeId: qrCodeId(),
			updateFields: {},
			payloadInput: 'fields',
			type: 'url',
			payload_url_url: fromAi('url', 'The new web page the code opens'),
		},
	},
	{
		node: 'Download QR image',
		tool: 'Download_QR_image',
		keys: ['qrCodeId'],
		parameters: {
			toolDescription:
				'Downloads the PNG image of an existing QR code. Give it the id of the code.',
			operation: 'downloadImage',
			qrCodeId: qrCodeId(),
			format: 'png',
			sizeUnit: 'pixels',
			size: 256,
			binaryPropertyName: 'data',
		},
	},
	{
		node: 'QR scan statistics',
		tool: 'QR_scan_statistics',
		keys: ['qrCodeId'],
		parameters: {
			toolDescription: 'Gets the scan statistics of a QR code (last 30 days). Give it the id.',
			operation: 'getScans',
			qrCodeId: qrCodeId(),
			output: 'statistics',
		},
	},
	{
		node: 'Create or update QR code by name',
		tool: 'Create_or_update_QR_code_by_name',
		keys: ['name', 'url'],
		parameters: {
			toolDescription:
				'Points the QR code of this name to the web page, creating the code when there is none. Give it the name and the URL.',
			operation: 'upsert',
			matchBy: 'name',
			name: fromAi('name', 'Name of the QR code'),
			type: 'url',
			payloadInput: 'fields',
			payload_url_url: fromAi('url', 'The web page the code opens'),
			additionalFields: {},
		},
	},
];

/** MCP Server Trigger 2 (bearer auth, on MCP_PATH) with every tool of TOOLS attached. */
function mcpWorkflow() {
	const trigger = node(
		TYPES.mcpTrigger,
		{ authentication: 'bearerAuth', path: MCP_PATH },
		{
			name: 'MCP Server Trigger',
			typeVersion: 2,
			webhookId: 'replaced-by-createWorkflow',
			credentials: credentialRef('httpBearerAuth', BEARER_CREDENTIAL),
		},
	);
	const tools = TOOLS.map(({ node: name, parameters }) =>
		node(
			TYPES.dynamicQrTool,
			{ descriptionType: 'manual', resource: 'qrCode', ...parameters },
			{
				name,
				// The version a user adds today; the tools' parameters are the same in version 1.
				typeVersion: 2,
				credentials: credentialRef('dynamicQrApi', DYNAMIC_QR_CREDENTIAL),
			},
		),
	);
	return workflow(
		'E2E MCP server with the Dynamic QR tools',
		[trigger, ...tools],
		connect(...tools.map((tool) => [tool.name, trigger.name, { type: 'ai_tool' }])),
	);
}

/** The one text block of a tool result. */
function resultText(result) {
	expect(result.content).toEqual([{ type: 'text', text: expect.any(String) }]);
	return result.content[0].text;
}

describe(`n8n current (${N8N_VERSIONS.current}): Dynamic QR tools over MCP`, () => {
	const log = (line) => process.stderr.write(`[e2e mcp] ${line}\n`);
	const bearerToken = crypto.randomBytes(24).toString('hex');
	const signingSecret = `whsec_${crypto.randomBytes(24).toString('base64')}`;
	/** Every header and body n8n sent the client, for the secrets check. */
	const received = [];
	const pendingBodies = [];
	let stack;
	let client;
	let url;

	/** fetch, recording each answer (streamed bodies are read from a clone as they come). */
	async function recordingFetch(input, init) {
		const response = await fetch(input, init);
		received.push(`${response.status} ${JSON.stringify([...response.headers])}`);
		// The GET stream stays open for server-sent notifications: only requests' answers are read.
		if ((init?.method ?? 'GET') !== 'GET') {
			pendingBodies.push(
				response
					.clone()
					.text()
					.then((text) => received.push(text)),
			);
		}
		return response;
	}

	async function connect() {
		const transport = new StreamableHTTPClientTransport(new URL(url), {
			requestInit: { headers: { Authorization: `Bearer ${bearerToken}` } },
			fetch: recordingFetch,
		});
		const mcp = new Client({ name: 'dynamic-qr-e2e', version: '1.0.0' });
		await mcp.connect(transport);
		return mcp;
	}

	const call = (tool, args) => client.callTool({ name: tool, arguments: args });
	const sandboxCodes = async () => (await stack.sandbox.control('GET', '/qr-codes')).data;

	beforeAll(
		async () => {
			const started = Date.now();
			stack = await startAgentStack({ version: N8N_VERSIONS.current, log });
			const { n8n } = stack;
			await n8n.createCredential({
				name: BEARER_CREDENTIAL,
				type: 'httpBearerAuth',
				data: { token: bearerToken },
			});
			// Not used by the tools: there to prove it does not leak either.
			await n8n.createCredential({
				name: SIGNING_CREDENTIAL,
				type: 'dynamicQrSigningSecretApi',
				data: { signingSecret },
			});
			const workflow = await n8n.createWorkflow(mcpWorkflow());
			await n8n.activate(workflow.id);
			// Version 2 registers its webhooks with isFullPath under n8n's MCP endpoint (`mcp`).
			url = `${n8n.url}/mcp/${MCP_PATH}`;
			client = await connect();
			log(`n8n up, workflow active, client connected to ${url} in ${Date.now() - started} ms`);
		},
		40 * 60 * 1000,
	);

	afterAll(async () => {
		await client?.close();
		await stack?.stop();
	}, 60000);

	test('without the bearer token n8n refuses the connection', async () => {
		const response = await fetch(url, {
			method: 'POST',
			headers: {
				'content-type': 'application/json',
				accept: 'application/json, text/event-stream',
			},
			body: JSON.stringify({
				jsonrpc: '2.0',
				id: 1,
				method: 'initialize',
				params: {
					protocolVersion: '2025-03-26',
					capabilities: {},
					clientInfo: { name: 'no-token', version: '1' },
				},
			}),
		});
		expect(response.status).toBe(403);
	});

	test('the client lists the seven tools with their descriptions and $fromAI inputs', async () => {
		const { tools } = await client.listTools();
		log(`tools: ${JSON.stringify(tools)}`);
		expect(tools.map((tool) => tool.name).sort()).toEqual(TOOLS.map((tool) => tool.tool).sort());
		for (const expected of TOOLS) {
			const tool = tools.find((entry) => entry.name === expected.tool);
			expect(tool.description).toBe(expected.parameters.toolDescription);
			expect(tool.inputSchema.type).toBe('object');
			expect(Object.keys(tool.inputSchema.properties).sort()).toEqual(expected.keys);
		}
		// The descriptions given in $fromAI() reach the client as the inputs' descriptions.
		const create = tools.find((tool) => tool.name === 'Create_QR_code');
		expect(create.inputSchema.properties.url.description).toBe('The web page the code opens');
	});

	test('an assistant creates, finds, re-points, downloads and reads the scans of a code', async () => {
		await stack.sandbox.control('POST', '/reset');
		const name = 'MCP flyer';
		const first = 'https://example.com/mcp/first';
		const second = 'https://example.com/mcp/second';

		const created = await call('Create_QR_code', { name, url: first });
		log(`create: ${JSON.stringify(created)}`);
		expect(created.isError).toBeFalsy();
		const code = findObject(
			parseToolOutput(resultText(created)),
			(entry) => typeof entry.id === 'string' && 'short_url' in entry,
		);
		expect(code).toEqual(expect.objectContaining({ name }));
		expect(await sandboxCodes()).toEqual([
			expect.objectContaining({ id: code.id, name, payload: { url: first } }),
		]);

		const got = await call('Get_QR_code', { qrCodeId: code.id });
		log(`get: ${JSON.stringify(got)}`);
		expect(got.isError).toBeFalsy();
		expect(findObject(parseToolOutput(resultText(got)), (entry) => entry.id === code.id)).toEqual(
			expect.objectContaining({ name, short_url: code.short_url }),
		);

		const updated = await call('Point_QR_code_to_URL', { qrCodeId: code.id, url: second });
		log(`update: ${JSON.stringify(updated)}`);
		expect(updated.isError).toBeFalsy();
		expect(resultText(updated)).toContain(second);
		expect(await sandboxCodes()).toEqual([
			expect.objectContaining({ id: code.id, payload: { url: second } }),
		]);

		const found = await call('Find_QR_codes', { search: 'flyer' });
		log(`get many: ${JSON.stringify(found)}`);
		expect(found.isError).toBeFalsy();
		expect(findObject(parseToolOutput(resultText(found)), (entry) => entry.id === code.id)).toEqual(
			expect.objectContaining({ name }),
		);

		const image = await call('Download_QR_image', { qrCodeId: code.id });
		log(`download: ${JSON.stringify(image).slice(0, 2000)}`);
		expect(image.isError).toBeFalsy();
		// n8n hands the client the items' json only (as to the AI Agent): the PNG stays in n8n.
		const imageText = resultText(image);
		expect(findObject(parseToolOutput(imageText), (entry) => entry.id === code.id)).toEqual(
			expect.objectContaining({ format: 'png' }),
		);
		expect(imageText).not.toContain(PNG_BASE64_MAGIC);

		await stack.sandbox.control('POST', '/scans', { qr_code_id: code.id });
		await stack.sandbox.control('POST', '/scans', { qr_code_id: code.id });
		const scans = await call('QR_scan_statistics', { qrCodeId: code.id });
		log(`scans: ${JSON.stringify(scans)}`);
		expect(scans.isError).toBeFalsy();
		expect(
			findObject(
				parseToolOutput(resultText(scans)),
				(entry) => 'total' in entry && 'days' in entry,
			),
		).toEqual(expect.objectContaining({ total: 2 }));
	});

	test('create or update by name: the second call re-points the code, it does not add one', async () => {
		await stack.sandbox.control('POST', '/reset');
		const name = 'MCP poster';
		const urls = ['https://example.com/poster/v1', 'https://example.com/poster/v2'];
		const outcomes = [];
		for (const target of urls) {
			const result = await call('Create_or_update_QR_code_by_name', { name, url: target });
			log(`upsert: ${JSON.stringify(result)}`);
			expect(result.isError).toBeFalsy();
			outcomes.push(
				findObject(parseToolOutput(resultText(result)), (entry) => 'createOrUpdate' in entry)
					?.createOrUpdate,
			);
		}
		expect(outcomes).toEqual(['created', 'updated']);
		expect(await sandboxCodes()).toEqual([
			expect.objectContaining({ name, payload: { url: urls[1] } }),
		]);
	});

	test('bad calls come back as readable tool errors and the session goes on', async () => {
		await stack.sandbox.control('POST', '/reset');
		const malformed = await call('Get_QR_code', { qrCodeId: 'qr_does_not_exist' });
		log(`get malformed id: ${JSON.stringify(malformed)}`);
		expect(malformed.isError).toBe(true);
		expect(resultText(malformed)).toMatch(/^NodeOperationError: Invalid ID "qr_does_not_exist"/);

		const missing = await call('Get_QR_code', { qrCodeId: 'AbCdEfGhIjKl' });
		log(`get missing: ${JSON.stringify(missing)}`);
		expect(missing.isError).toBe(true);
		expect(resultText(missing)).toMatch(
			/^NodeOperationError: The QR code "AbCdEfGhIjKl" was not found in this workspace \(404\)/,
		);

		const invalid = await call('Create_QR_code', { name: 'Bad link', url: 'not a web address' });
		log(`create invalid: ${JSON.stringify(invalid)}`);
		expect(invalid.isError).toBe(true);
		expect(resultText(invalid)).toMatch(
			/^NodeOperationError: Invalid "URL" \(payload\.url\) in item 0: must be a full http or https URL/,
		);
		expect(await sandboxCodes()).toEqual([]);

		// The same session still works.
		const created = await call('Create_QR_code', {
			name: 'After the errors',
			url: 'https://example.com/ok',
		});
		expect(created.isError).toBeFalsy();
		expect(await sandboxCodes()).toEqual([expect.objectContaining({ name: 'After the errors' })]);
	});

	test('no secret reaches the client', async () => {
		await Promise.all(pendingBodies);
		const everything = received.join('\n');
		// The recording holds what the tools answered, errors included.
		expect(received.length).toBeGreaterThan(10);
		expect(everything).toContain('MCP flyer');
		expect(everything).toContain('was not found in this workspace');
		const secrets = {
			...stack.sandbox.keys,
			signingSecret,
			bearerToken,
		};
		for (const [what, secret] of Object.entries(secrets)) {
			expect({ what, leaked: everything.includes(secret) }).toEqual({ what, leaked: false });
		}
	});
});
