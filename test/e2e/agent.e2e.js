'use strict';
/**
 * End-to-end: the package's AI tool variant (`n8n-nodes-dynamic-qr.dynamicQrTool`) used by a real
 * n8n AI Agent, on the current 2.x line and the last 1.x line. The chat model is a scripted
 * stand-in for OpenAI on 127.0.0.1 (test/support/fake-openai.js) behind n8n's own OpenAI Chat
 * Model node, so everything between the model and the sandbox is n8n's real code: tool
 * conversion, the $fromAI() schemas, running the tool nodes and handing their results back.
 *
 * The scripted model (test/e2e/agent-workflow.js) creates a code with the "Create QR code" tool,
 * takes the id from that tool's result, downloads the image with the "Download QR image" tool and
 * then answers. The agent is run three ways on each n8n:
 *   - AI Agent 3.x with the OpenAI Chat Model 1.3 on its default, the Responses API (what a new
 *     workflow gets). Agent 3.x runs tools as workflow nodes through "engine requests".
 *   - the same on the Chat Completions API.
 *   - AI Agent 2.2 on Chat Completions: older workflows, and n8n's other way of running a tool
 *     (in-process, `makeHandleToolInvocation`, also used by the AI Agent Tool and MCP nodes).
 *     Agent 2.2 refuses a model on the Responses API, so there is no such combination.
 * Each way is run from the editor's "Execute workflow" (the model is asked for whole answers)
 * and from a Webhook trigger that streams the agent's output to its caller (the model is asked
 * with `stream: true`). A last test has the model ask for two codes in one answer (parallel tool
 * calls): two creates, each with its own idempotency key.
 *
 * What n8n gives the model for the Download Image tool's output: only the `json` of its items
 * ({ id, name, short_url, format }); the PNG is never sent to the model. Agent 3.x keeps the
 * PNG in the tool node's run in the execution; Agent 2.2 drops it with a warning in n8n's log.
 *
 * Run with `npx jest -c jest.e2e.config.js test/e2e/agent.e2e.js` (or all e2e: `npm run test:e2e`).
 */
const fs = require('node:fs');

const { N8N_VERSIONS } = require('../../dev/n8n/instance');
const { decodePng } = require('../../dev/qr-image');
const {
	startAgentStack,
	CREATE_TOOL_NODE,
	DOWNLOAD_TOOL_NODE,
	CREATE_TOOL_DESCRIPTION,
	DOWNLOAD_TOOL_DESCRIPTION,
	FROM_AI,
	agentWorkflow,
	qrAgentScript,
	twoCodesScript,
	findObject,
	parseToolOutput,
} = require('./agent-workflow');
const { waitFor } = require('../../dev/wait-for');

/** n8n turns node names into tool names (nodeNameToToolName: anything else becomes "_"). */
const CREATE_TOOL = 'Create_QR_code';
const DOWNLOAD_TOOL = 'Download_QR_image';
/** The first bytes of a PNG file in base64: an image handed to the model would contain them. */
const PNG_BASE64_MAGIC = 'iVBORw0KGgo';

const model = (extra = {}) => ({
	model: { __rl: true, mode: 'list', value: 'gpt-4o-mini', cachedResultName: 'gpt-4o-mini' },
	...extra,
	options: {},
});
/**
 * The newest AI Agent of each line (2.x: 3.1, 1.123: 3) and the newest OpenAI Chat Model (1.3 on
 * both), plus Agent 2.2. `toolRunsAsNode`: Agent 3.x runs the tool as a workflow node, whose
 * output items (binary included) stay in the execution; Agent 2.2 calls it in-process and keeps
 * only what the model got.
 */
const setups = (newestAgent) => [
	{
		label: `Agent ${newestAgent}, OpenAI Chat Model 1.3 on the Responses API (default)`,
		agentVersion: newestAgent,
		modelVersion: 1.3,
		modelParameters: model(),
		api: 'responses',
		toolRunsAsNode: true,
	},
	{
		label: `Agent ${newestAgent}, OpenAI Chat Model 1.3 on Chat Completions`,
		agentVersion: newestAgent,
		modelVersion: 1.3,
		modelParameters: model({ responsesApiEnabled: false }),
		api: 'chat',
		toolRunsAsNode: true,
	},
	{
		label: 'Agent 2.2, OpenAI Chat Model 1.3 on Chat Completions',
		agentVersion: 2.2,
		modelVersion: 1.3,
		modelParameters: model({ responsesApiEnabled: false }),
		api: 'chat',
		toolRunsAsNode: false,
	},
];

describe.each([
	['current', N8N_VERSIONS.current, 3.1],
	['previous', N8N_VERSIONS.previous, 3],
])('n8n %s (%s): Dynamic QR as AI Agent tools', (_line, version, newestAgent) => {
	let n8n;
	let sandbox;
	let openai;
	/** What the stand-in model answers; each test sets its own script. */
	let script = () => ({ text: 'No script set' });
	const log = (line) => process.stderr.write(`[e2e agent ${version}] ${line}\n`);

	let stack;

	beforeAll(
		async () => {
			stack = await startAgentStack({ version, log, reply: (turn) => script(turn) });
			({ n8n, sandbox, openai } = stack);
		},
		40 * 60 * 1000,
	);

	afterAll(async () => {
		await stack?.stop();
	}, 60000);

	/**
	 * A clean slate (so "exactly one create" counts one test's requests only) and the scripted
	 * model for one code: `{ codeName, codeUrl, prompt }`.
	 */
	async function prepareOneCode(setup, label) {
		await sandbox.control('POST', '/reset');
		openai.requests.length = 0;
		const slug = `${label}-${setup.api}-${String(setup.agentVersion).replace('.', '')}`;
		const codeName = `Agent flyer ${slug}`;
		const codeUrl = `https://example.com/agent/${slug}`;
		script = qrAgentScript({ codeName, codeUrl });
		const prompt = `Create a QR code named "${codeName}" for ${codeUrl} and download its image.`;
		return { codeName, codeUrl, prompt };
	}

	test.each(setups(newestAgent).map((setup) => [setup.label, setup]))(
		'%s: the agent creates a code and downloads its image through the two tools',
		async (_label, setup) => {
			const expected = await prepareOneCode(setup, 'manual');
			const workflow = await n8n.createWorkflow(
				agentWorkflow({ name: `E2E agent: ${setup.label}`, prompt: expected.prompt, ...setup }),
			);
			const started = Date.now();
			const run = await n8n.runWorkflow(workflow.id, { timeoutMs: 240000 });
			log(`${setup.label}: execution ${run.id} ${run.status} in ${Date.now() - started} ms`);
			// A run from the editor's button does not stream: the model is asked for whole answers.
			await checkCreateAndDownload(run, setup, { ...expected, streamed: false });
		},
		300000,
	);

	/** Everything the one-code conversation must have left in the model, the sandbox and n8n. */
	async function checkCreateAndDownload(run, setup, { codeName, codeUrl, prompt, streamed }) {
		expect(run.error).toBeNull();
		expect(run.status).toBe('success');

		// --- What the model was asked: three calls on the chosen API, each with both tools, their
		// descriptions and the $fromAI() keys as the tools' parameters.
		const calls = openai.modelCalls;
		expect(calls.map((call) => call.api)).toEqual([setup.api, setup.api, setup.api]);
		expect(calls.map((call) => call.stream)).toEqual([streamed, streamed, streamed]);
		expect(calls.every((call) => call.authorized)).toBe(true);
		expect(calls[0].turn.userText).toContain(prompt);
		for (const { turn } of calls) {
			const tools = Object.fromEntries(turn.tools.map((tool) => [tool.name, tool]));
			expect(Object.keys(tools).sort()).toEqual([CREATE_TOOL, DOWNLOAD_TOOL]);
			expect(tools[CREATE_TOOL].description).toBe(CREATE_TOOL_DESCRIPTION);
			expect(tools[DOWNLOAD_TOOL].description).toBe(DOWNLOAD_TOOL_DESCRIPTION);
			expect(tools[CREATE_TOOL].parameters).toMatchObject({
				type: 'object',
				properties: {
					name: { type: 'string', description: FROM_AI.create.name },
					url: { type: 'string', description: FROM_AI.create.url },
				},
			});
			expect(Object.keys(tools[CREATE_TOOL].parameters.properties).sort()).toEqual(['name', 'url']);
			expect([...tools[CREATE_TOOL].parameters.required].sort()).toEqual(['name', 'url']);
			expect(tools[DOWNLOAD_TOOL].parameters).toMatchObject({
				type: 'object',
				properties: { qrCodeId: { type: 'string', description: FROM_AI.download.qrCodeId } },
				required: ['qrCodeId'],
			});
			expect(Object.keys(tools[DOWNLOAD_TOOL].parameters.properties)).toEqual(['qrCodeId']);
		}
		// The model's own moves, as scripted: create, then download, then the answer.
		expect(calls[0].answer.toolCalls.map((call) => call.name)).toEqual([CREATE_TOOL]);
		expect(calls[1].answer.toolCalls.map((call) => call.name)).toEqual([DOWNLOAD_TOOL]);
		expect(typeof calls[2].answer.text).toBe('string');

		// --- The service: exactly one create with what the model chose, one image download of
		// that code, and nothing else written.
		const apiRequests = (await sandbox.control('GET', '/requests')).data;
		const creates = apiRequests.filter((r) => r.method === 'POST' && r.path === '/qr-codes');
		expect(creates).toHaveLength(1);
		expect(creates[0].status).toBe(201);
		const codes = (await sandbox.control('GET', '/qr-codes')).data;
		expect(codes).toHaveLength(1);
		const [code] = codes;
		expect(code).toMatchObject({
			name: codeName,
			type: 'url',
			payload: { url: codeUrl },
			destination: codeUrl,
		});
		expect(code.deleted).toBeFalsy();
		const images = apiRequests.filter((r) => r.method === 'GET' && /\/image$/.test(r.path));
		expect(images).toEqual([
			expect.objectContaining({
				path: `/qr-codes/${code.id}/image`,
				query: expect.objectContaining({ format: 'png', size: '256' }),
				status: 200,
			}),
		]);
		expect(apiRequests.filter((r) => r.method !== 'GET' && r !== creates[0])).toEqual([]);
		expect(calls[1].answer.toolCalls[0].arguments).toBe(JSON.stringify({ qrCodeId: code.id }));

		// --- What the tools answered the model: the created code (the model took its id from
		// there), then the download's JSON. The image itself never reaches the model: n8n hands
		// an agent only the `json` of a tool's output items.
		const createResult = calls[1].turn.toolResults.find((result) => result.name === CREATE_TOOL);
		expect(calls[1].turn.toolResults).toHaveLength(1);
		expect(
			findObject(parseToolOutput(createResult.output), (entry) => entry.id === code.id),
		).toMatchObject({
			id: code.id,
			object: 'qr_code',
			name: codeName,
			short_url: code.short_url,
			destination: codeUrl,
		});
		expect(calls[2].turn.toolResults.map((result) => result.name)).toEqual([
			CREATE_TOOL,
			DOWNLOAD_TOOL,
		]);
		const downloadOutput = calls[2].turn.toolResults[1].output;
		expect(parseToolOutput(downloadOutput)).toEqual([
			{ id: code.id, name: codeName, short_url: code.short_url, format: 'png' },
		]);
		expect(downloadOutput).not.toContain(PNG_BASE64_MAGIC);
		expect(downloadOutput).not.toMatch(/binary|filesystem|mimeType/i);

		// --- The agent's answer is the model's final text, in the execution.
		const output = run.items('AI Agent');
		expect(output).toHaveLength(1);
		expect(output[0].json.output).toBe(calls[2].answer.text);
		expect(output[0].json.output).toContain(code.short_url);

		// --- Each tool node ran once, and its run in the execution shows what it returned.
		expect(run.runData[CREATE_TOOL_NODE]).toHaveLength(1);
		expect(run.runData[DOWNLOAD_TOOL_NODE]).toHaveLength(1);
		const [downloadItem] = run.runData[DOWNLOAD_TOOL_NODE][0].data.ai_tool[0];
		if (setup.toolRunsAsNode) {
			// Agent 3.x: the tool ran as a node; its item keeps the PNG next to the JSON the
			// model got, so the image is in the execution (not in the agent's reach).
			expect(downloadItem.json).toEqual({
				id: code.id,
				name: codeName,
				short_url: code.short_url,
				format: 'png',
			});
			expect(downloadItem.binary.data).toMatchObject({
				mimeType: 'image/png',
				fileName: `qr-${code.id}.png`,
			});
			const decoded = decodePng(await n8n.binary(downloadItem.binary.data));
			expect(decoded).toEqual({ width: 256, height: 256, text: code.short_url });
		} else {
			// Agent 2.2: the tool ran in-process; n8n logs only what the model got (`response`)
			// and drops the binary, with a warning in its own log.
			expect(downloadItem.json).toEqual({
				response: [{ id: code.id, name: codeName, short_url: code.short_url, format: 'png' }],
			});
			expect(downloadItem.binary).toBeUndefined();
			await waitFor(
				() =>
					fs
						.readFileSync(n8n.logFile, 'utf8')
						.includes(
							`Response from Tool '${DOWNLOAD_TOOL_NODE}' included binary data, which is not supported in Agents. The binary data was omitted from the response.`,
						),
				{ what: "n8n's warning about the dropped binary in its log", timeoutMs: 15000 },
			);
		}
	}

	test.each(setups(newestAgent).map((setup) => [setup.label, setup]))(
		'%s, streaming to a Webhook caller: the same conversation with every model answer streamed',
		async (_label, setup) => {
			const expected = await prepareOneCode(setup, 'stream');
			// The Webhook node's URL is its path alone (n8n's "full path" webhooks), so each test
			// gets its own.
			const webhookPath = `dynamic-qr-agent-${setup.api}`;
			const workflow = await n8n.createWorkflow(
				agentWorkflow({
					name: `E2E agent, streaming: ${setup.label}`,
					prompt: expected.prompt,
					trigger: 'webhook',
					webhookPath,
					...setup,
				}),
			);
			await n8n.activate(workflow.id);
			try {
				const started = Date.now();
				const response = await fetch(`${n8n.url}/webhook/${webhookPath}`, {
					method: 'POST',
					headers: { 'content-type': 'application/json' },
					body: '{}',
				});
				expect(response.status).toBe(200);
				// n8n streams one JSON object a line: begin/item/end per node run; the items of
				// the agent's last run are the model's final text.
				const lines = (await response.text())
					.split('\n')
					.filter((line) => line.trim())
					.map((line) => JSON.parse(line));
				const finished = await waitFor(
					async () => {
						const list = await n8n.executions(workflow.id);
						const done = list.filter(
							(execution) => !['new', 'running', 'waiting'].includes(execution.status),
						);
						return done.length === 1 && list.length === 1 ? done[0] : null;
					},
					{ what: 'the webhook execution to finish', timeoutMs: 120000 },
				);
				const run = await n8n.execution(finished.id);
				log(
					`${setup.label}, streaming: execution ${run.id} ${run.status} in ${Date.now() - started} ms`,
				);
				await checkCreateAndDownload(run, setup, { ...expected, streamed: true });
				const finalText = openai.modelCalls[2].answer.text;
				const streamedText = lines
					.filter((line) => line.type === 'item' && line.metadata?.nodeName === 'AI Agent')
					.map((line) => line.content)
					.join('');
				expect(streamedText).toContain(finalText);
			} finally {
				await n8n.deactivate(workflow.id);
			}
		},
		300000,
	);

	test.each(setups(newestAgent).map((setup) => [setup.label, setup]))(
		'%s: two codes asked for in one model turn are two creates, each with its own idempotency key',
		async (_label, setup) => {
			await sandbox.control('POST', '/reset');
			openai.requests.length = 0;
			const slug = `${setup.api}-${String(setup.agentVersion).replace('.', '')}`;
			const wanted = [
				{ name: `Agent poster A ${slug}`, url: `https://example.com/poster-a/${slug}` },
				{ name: `Agent poster B ${slug}`, url: `https://example.com/poster-b/${slug}` },
			];
			script = twoCodesScript(wanted);
			const prompt = `Create two QR codes: "${wanted[0].name}" for ${wanted[0].url} and "${wanted[1].name}" for ${wanted[1].url}.`;

			const workflow = await n8n.createWorkflow(
				agentWorkflow({ name: `E2E agent, two codes: ${setup.label}`, prompt, ...setup }),
			);
			const run = await n8n.runWorkflow(workflow.id, { timeoutMs: 240000 });
			expect(run.error).toBeNull();
			expect(run.status).toBe('success');

			// The model asked for both in its first answer, and got both results before answering.
			const calls = openai.modelCalls;
			expect(calls).toHaveLength(2);
			expect(calls[0].answer.toolCalls.map((call) => call.name)).toEqual([
				CREATE_TOOL,
				CREATE_TOOL,
			]);
			expect(calls[1].turn.toolResults.map((result) => result.name)).toEqual([
				CREATE_TOOL,
				CREATE_TOOL,
			]);

			// Two creates, both made: the node's default idempotency key differs per tool call (a
			// shared key would have answered the first code again, or a 422 for the other body).
			const apiRequests = (await sandbox.control('GET', '/requests')).data;
			const creates = apiRequests.filter((r) => r.method === 'POST' && r.path === '/qr-codes');
			expect(creates.map((r) => r.status)).toEqual([201, 201]);
			expect(creates.every((r) => /^n8n-[0-9a-f]{40}$/.test(r.idempotency_key))).toBe(true);
			expect(new Set(creates.map((r) => r.idempotency_key)).size).toBe(2);
			const codes = (await sandbox.control('GET', '/qr-codes')).data;
			expect(
				codes
					.map((code) => ({ name: code.name, destination: code.destination }))
					.sort((a, b) => a.name.localeCompare(b.name)),
			).toEqual(wanted.map(({ name, url }) => ({ name, destination: url })));

			// Each tool result the model got is the code made for that call.
			for (const result of calls[1].turn.toolResults) {
				const asked = JSON.parse(
					calls[0].answer.toolCalls.find((call) => call.id === result.callId).arguments,
				);
				const made = codes.find((code) => code.name === asked.name);
				expect(
					findObject(parseToolOutput(result.output), (entry) => entry.id === made.id),
				).toMatchObject({
					name: asked.name,
					destination: asked.url,
					short_url: made.short_url,
				});
			}
			expect(run.runData[CREATE_TOOL_NODE]).toHaveLength(2);
			const output = run.items('AI Agent')[0].json.output;
			expect(output).toBe(calls[1].answer.text);
			for (const code of codes) expect(output).toContain(code.short_url);
		},
		300000,
	);
});
