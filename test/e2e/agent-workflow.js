'use strict';
/**
 * The AI Agent workflow of test/e2e/agent.e2e.js (and agent-upsert.e2e.js), the scripted model
 * behind it, and what they run on: a sandbox, the stand-in model and an n8n with both credentials.
 *
 * Manual Trigger → AI Agent, with an OpenAI Chat Model sub-node (pointed at the stand-in of
 * test/support/fake-openai.js) and two Dynamic QR tool sub-nodes whose parameters the model fills
 * through $fromAI(): "Create QR code" (name, url) and "Download QR image" (qrCodeId).
 */
const { startN8n } = require('../../dev/n8n/instance');
const {
	TYPES,
	node,
	credentialRef,
	resourceId,
	connect,
	workflow,
} = require('../../dev/n8n/workflow-builder');
const { startSandbox } = require('../../dev/sandbox');
const { startFakeOpenAi } = require('../support/fake-openai');

const DYNAMIC_QR_CREDENTIAL = 'Dynamic QR account';
const OPENAI_CREDENTIAL = 'OpenAI (local stand-in)';
const CREATE_TOOL_NODE = 'Create QR code';
const DOWNLOAD_TOOL_NODE = 'Download QR image';
const CREATE_TOOL_DESCRIPTION =
	'Creates a dynamic QR code that opens a web page. Give it the name of the code and the URL.';
const DOWNLOAD_TOOL_DESCRIPTION =
	'Downloads the PNG image of an existing QR code. Give it the id of the code.';
/** The $fromAI() keys, with the descriptions the model must receive in each tool's schema. */
const FROM_AI = {
	create: {
		name: 'Name of the QR code',
		url: 'The web page the code opens',
	},
	download: {
		qrCodeId: 'The id of the QR code, as answered by the tool that created it',
	},
};

const fromAi = (key, description) => `={{ $fromAI('${key}', '${description}', 'string') }}`;

/** The Dynamic QR tools of the agent by default: create a code, download its image. */
const QR_TOOLS = [
	{
		name: CREATE_TOOL_NODE,
		parameters: {
			descriptionType: 'manual',
			toolDescription: CREATE_TOOL_DESCRIPTION,
			resource: 'qrCode',
			operation: 'create',
			name: fromAi('name', FROM_AI.create.name),
			type: 'url',
			payloadInput: 'fields',
			payload_url_url: fromAi('url', FROM_AI.create.url),
			additionalFields: {},
		},
	},
	{
		name: DOWNLOAD_TOOL_NODE,
		parameters: {
			descriptionType: 'manual',
			toolDescription: DOWNLOAD_TOOL_DESCRIPTION,
			resource: 'qrCode',
			operation: 'downloadImage',
			qrCodeId: resourceId(fromAi('qrCodeId', FROM_AI.download.qrCodeId)),
			format: 'png',
			sizeUnit: 'pixels',
			size: 256,
			binaryPropertyName: 'data',
		},
	},
];

/**
 * The workflow. `agentVersion`, `modelVersion` and `modelParameters` are what the n8n under test
 * offers (see the test); `prompt` is the user message defined in the AI Agent node. `trigger`:
 * 'manual' (Manual Trigger, named "Start") or 'webhook' (a Webhook trigger, named "Webhook", on
 * `webhookPath`, that answers its caller with the agent's streamed output). `tools`: the Dynamic QR
 * tool nodes, `{ name, parameters }` each (default: create and download).
 */
function agentWorkflow({
	name,
	prompt,
	agentVersion,
	modelVersion,
	modelParameters,
	trigger = 'manual',
	webhookPath,
	tools = QR_TOOLS,
}) {
	const start =
		trigger === 'webhook'
			? node(
					TYPES.webhook,
					{ httpMethod: 'POST', path: webhookPath, responseMode: 'streaming', options: {} },
					{ name: 'Webhook', typeVersion: 2.1, webhookId: 'replaced-by-createWorkflow' },
				)
			: node(TYPES.manualTrigger, {}, { name: 'Start' });
	const nodes = [
		start,
		node(
			TYPES.agent,
			{ promptType: 'define', text: prompt, options: {} },
			{ name: 'AI Agent', typeVersion: agentVersion },
		),
		node(TYPES.lmChatOpenAi, modelParameters, {
			name: 'OpenAI Chat Model',
			typeVersion: modelVersion,
			credentials: credentialRef('openAiApi', OPENAI_CREDENTIAL),
		}),
		...tools.map(({ name: toolName, parameters }) =>
			node(TYPES.dynamicQrTool, parameters, {
				name: toolName,
				credentials: credentialRef('dynamicQrApi', DYNAMIC_QR_CREDENTIAL),
			}),
		),
	];
	return workflow(
		name,
		nodes,
		connect(
			[start.name, 'AI Agent'],
			['OpenAI Chat Model', 'AI Agent', { type: 'ai_languageModel' }],
			...tools.map((tool) => [tool.name, 'AI Agent', { type: 'ai_tool' }]),
		),
	);
}

/** The first object, however deeply nested in `value`, for which `test` is true. */
function findObject(value, test) {
	if (value && typeof value === 'object') {
		if (!Array.isArray(value) && test(value)) return value;
		for (const child of Object.values(value)) {
			const found = findObject(child, test);
			if (found) return found;
		}
	}
	return undefined;
}

/** A tool's output as the model got it (a JSON string), parsed; the raw text when not JSON. */
function parseToolOutput(output) {
	try {
		return JSON.parse(output);
	} catch {
		return output;
	}
}

/**
 * The scripted model: it picks its tools by their schemas (the $fromAI keys), not by name, so a
 * tool whose schema lost its keys is simply not found. Turn 1: create the code; turn 2 (once the
 * create tool's result is in the chat): download the image of the id found in that result;
 * turn 3 (once the download's result is in): the final answer. Anything else is a final answer
 * that says what was missing, which the test's assertions then catch.
 */
function qrAgentScript({ codeName, codeUrl }) {
	const finalText = (code, download) =>
		`Done: the QR code "${code.name}" (id ${code.id}) opens ${codeUrl} through ${code.short_url}; ` +
		`its ${download.format ?? 'image'} image was downloaded.`;
	return (turn) => {
		const keys = (tool) => Object.keys(tool.parameters?.properties ?? {}).sort();
		const createTool = turn.tools.find((tool) => keys(tool).join() === 'name,url');
		const downloadTool = turn.tools.find((tool) => keys(tool).join() === 'qrCodeId');
		if (!createTool || !downloadTool) {
			return { text: `Missing tools; got: ${turn.tools.map((tool) => tool.name).join(', ')}` };
		}
		const createResult = turn.toolResults.find((result) => result.name === createTool.name);
		if (!createResult) {
			return {
				toolCalls: [{ name: createTool.name, arguments: { name: codeName, url: codeUrl } }],
			};
		}
		const code = findObject(
			parseToolOutput(createResult.output),
			(entry) => typeof entry.id === 'string' && 'short_url' in entry,
		);
		if (!code) return { text: `The create tool answered no code: ${createResult.output}` };
		const downloadResult = turn.toolResults.find((result) => result.name === downloadTool.name);
		if (!downloadResult) {
			return { toolCalls: [{ name: downloadTool.name, arguments: { qrCodeId: code.id } }] };
		}
		const download =
			findObject(parseToolOutput(downloadResult.output), (entry) => entry.id === code.id) ?? {};
		return { text: finalText(code, download) };
	};
}

/**
 * A model that asks for two codes at once: turn 1 calls the create tool twice in one answer
 * (parallel tool calls, as OpenAI models do), turn 2 answers with both codes' short links.
 */
function twoCodesScript(codes) {
	return (turn) => {
		const keys = (tool) => Object.keys(tool.parameters?.properties ?? {}).sort();
		const createTool = turn.tools.find((tool) => keys(tool).join() === 'name,url');
		if (!createTool) {
			return { text: `Missing tools; got: ${turn.tools.map((tool) => tool.name).join(', ')}` };
		}
		const results = turn.toolResults.filter((result) => result.name === createTool.name);
		if (results.length === 0) {
			return {
				toolCalls: codes.map(({ name, url }) => ({
					name: createTool.name,
					arguments: { name, url },
				})),
			};
		}
		const made = results.map(
			(result) =>
				findObject(
					parseToolOutput(result.output),
					(entry) => typeof entry.id === 'string' && 'short_url' in entry,
				) ?? { name: '?', short_url: `no code in ${result.output}` },
		);
		return { text: made.map((code) => `"${code.name}": ${code.short_url}`).join('; ') };
	};
}

/**
 * The sandbox, the stand-in OpenAI answering with `reply(turn)`, and an n8n of `version` holding
 * the Dynamic QR and OpenAI credentials. Without `reply` (no model needed, as behind the MCP Server
 * Trigger) the stand-in and its credential are left out. `stop()` stops all of them (E2E_KEEP=1
 * keeps n8n's folder).
 */
async function startAgentStack({ version, log, reply }) {
	const sandbox = await startSandbox({ port: 0 });
	const openai = reply ? await startFakeOpenAi({ reply }) : undefined;
	let n8n;
	const stop = async () => {
		await n8n?.stop({ keep: process.env.E2E_KEEP === '1' });
		await openai?.close();
		await sandbox.close();
	};
	try {
		// On a fresh machine this first provisions n8n (several minutes; .ci/run does it beforehand).
		n8n = await startN8n({ version, log });
		await n8n.createCredential({
			name: DYNAMIC_QR_CREDENTIAL,
			type: 'dynamicQrApi',
			data: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		});
		if (openai) {
			await n8n.createCredential({
				name: OPENAI_CREDENTIAL,
				type: 'openAiApi',
				data: { apiKey: openai.apiKey, url: openai.baseUrl, header: false },
			});
		}
	} catch (error) {
		// The caller gets no stack to stop: left open, the servers would keep jest from exiting.
		await stop();
		throw error;
	}
	return { n8n, sandbox, openai, stop };
}

module.exports = {
	startAgentStack,
	fromAi,
	twoCodesScript,
	DYNAMIC_QR_CREDENTIAL,
	OPENAI_CREDENTIAL,
	CREATE_TOOL_NODE,
	DOWNLOAD_TOOL_NODE,
	CREATE_TOOL_DESCRIPTION,
	DOWNLOAD_TOOL_DESCRIPTION,
	FROM_AI,
	agentWorkflow,
	qrAgentScript,
	findObject,
	parseToolOutput,
};
