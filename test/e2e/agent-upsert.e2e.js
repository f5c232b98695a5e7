'use strict';
/**
 * End-to-end: QR Code › Create or Update as an AI Agent tool in real n8n (the current 2.x line and
 * the last 1.x line), with the newest AI Agent and the OpenAI Chat Model on its default API,
 * pointed at the scripted stand-in of test/support/fake-openai.js. The model calls the tool three
 * times in one conversation with the same name: a new URL, another URL, the same again. The
 * tool answers created, updated, unchanged; the service sees one create and one change.
 *
 * Run with `npx jest -c jest.e2e.config.js test/e2e/agent-upsert.e2e.js`.
 */
const { N8N_VERSIONS } = require('../../dev/n8n/instance');
const {
	startAgentStack,
	agentWorkflow,
	findObject,
	fromAi,
	parseToolOutput,
} = require('./agent-workflow');

const TOOL_NODE = 'Sync QR code';
const FROM_AI = { name: 'Name of the QR code', url: 'The web page the code opens' };
const CODE_NAME = 'Agent sync poster';
/** The URL the model gives on each of its three calls. */
const URLS = [
	'https://example.com/poster/v1',
	'https://example.com/poster/v2',
	'https://example.com/poster/v2',
];

/** Calls the tool with URLS[n] once the n-th result is in, then answers what each call did. */
function syncScript(turn) {
	const keys = (tool) => Object.keys(tool.parameters?.properties ?? {}).sort();
	const tool = turn.tools.find((entry) => keys(entry).join() === 'name,url');
	if (!tool)
		return { text: `Missing tool; got: ${turn.tools.map((entry) => entry.name).join(', ')}` };
	const results = turn.toolResults.filter((result) => result.name === tool.name);
	if (results.length < URLS.length) {
		return {
			toolCalls: [{ name: tool.name, arguments: { name: CODE_NAME, url: URLS[results.length] } }],
		};
	}
	const outcomes = results.map(
		(result) =>
			findObject(parseToolOutput(result.output), (entry) => 'createOrUpdate' in entry)
				?.createOrUpdate ?? `no outcome in ${result.output}`,
	);
	return { text: outcomes.join(', ') };
}

describe.each([
	['current', N8N_VERSIONS.current, 3.1],
	['previous', N8N_VERSIONS.previous, 3],
])('n8n %s (%s): Create or Update as an AI Agent tool', (_line, version, agentVersion) => {
	let stack;

	beforeAll(
		async () => {
			stack = await startAgentStack({
				version,
				log: (line) => process.stderr.write(`[e2e agent-upsert ${version}] ${line}\n`),
				reply: syncScript,
			});
		},
		40 * 60 * 1000,
	);

	afterAll(async () => {
		await stack?.stop();
	}, 60000);

	test('three calls with one name: created, updated, unchanged; one create and one change at the service', async () => {
		const { n8n, sandbox } = stack;
		const workflow = await n8n.createWorkflow(
			agentWorkflow({
				name: 'E2E agent, Create or Update',
				prompt: `Point the QR code "${CODE_NAME}" to ${URLS[0]}, then to ${URLS[1]}, then make sure it still does.`,
				agentVersion,
				modelVersion: 1.3,
				modelParameters: {
					model: {
						__rl: true,
						mode: 'list',
						value: 'gpt-4o-mini',
						cachedResultName: 'gpt-4o-mini',
					},
					options: {},
				},
				tools: [
					{
						name: TOOL_NODE,
						parameters: {
							descriptionType: 'manual',
							toolDescription:
								'Creates a dynamic QR code of the given name that opens a web page, or points the existing one to the page. Give it the name and the URL.',
							resource: 'qrCode',
							operation: 'upsert',
							matchBy: 'name',
							name: fromAi('name', FROM_AI.name),
							type: 'url',
							payloadInput: 'fields',
							payload_url_url: fromAi('url', FROM_AI.url),
							additionalFields: {},
						},
					},
				],
			}),
		);
		const run = await n8n.runWorkflow(workflow.id, { timeoutMs: 240000 });
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');
		expect(run.items('AI Agent')[0].json.output).toBe('created, updated, unchanged');

		const writes = (await sandbox.control('GET', '/requests')).data
			.filter((request) => request.method !== 'GET')
			.map((request) => `${request.method} ${request.path}`);
		const codes = (await sandbox.control('GET', '/qr-codes')).data;
		expect(codes).toEqual([
			expect.objectContaining({ name: CODE_NAME, payload: { url: URLS[1] } }),
		]);
		expect(writes).toEqual(['POST /qr-codes', `PATCH /qr-codes/${codes[0].id}`]);
	}, 300000);
});
