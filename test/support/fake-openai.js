'use strict';
/**
 * A stand-in for OpenAI's HTTP API on 127.0.0.1, for end-to-end tests of AI Agent workflows in a
 * real n8n without a real model (no network, no key, the same answers every run).
 *
 * It speaks what n8n's "OpenAI Chat Model" node sends through LangChain's ChatOpenAI:
 *   - `GET  /v1/models`            (the node's model list and the credential test)
 *   - `POST /v1/chat/completions`  (Chat Completions; plain JSON or `stream: true` as SSE chunks)
 *   - `POST /v1/responses`         (Responses API, the default of the node's version 1.3;
 *                                   plain JSON or `stream: true` as SSE events)
 *
 * What to answer is up to the test: `reply(turn)` gets one model call in a shape that does not
 * depend on the API used,
 *   { api: 'chat' | 'responses', model, stream, tools: [{ name, description, parameters }],
 *     toolCalls: [{ id, name, arguments }],          // calls the model made earlier in the chat
 *     toolResults: [{ callId, name, output }],       // what the tools answered (output: a string)
 *     userText }                                     // the user's messages, joined
 * and returns either `{ toolCalls: [{ name, arguments }] }` (arguments: an object) or
 * `{ text }`. A thrown error is answered as a 500 with the message (n8n then shows it).
 *
 *   const model = await startFakeOpenAi({ reply: (turn) => ({ text: 'hi' }) });
 *   model.baseUrl;    // http://127.0.0.1:PORT/v1  (the openAiApi credential's "Base URL")
 *   model.requests;   // every request: { method, path, api, stream, body, authorized, turn }
 *   await model.close();
 *
 * The API key is never recorded: `authorized` only says whether the request carried
 * `Authorization: Bearer <apiKey>`.
 */
const http = require('node:http');

const MODELS = ['gpt-4o-mini', 'gpt-4.1-mini'];

/** Text of a Chat Completions or Responses content value (a string or a list of parts). */
function contentText(content) {
	if (typeof content === 'string') return content;
	if (!Array.isArray(content)) return content == null ? '' : JSON.stringify(content);
	return content
		.map((part) => (typeof part === 'string' ? part : (part?.text ?? part?.output ?? '')))
		.join('');
}

/**
 * A turn (see the header) from an API's tools and its conversation so far, each entry of which is
 * `{ user?: content, calls?: [{ id, name, arguments }], result?: { callId, output } }`.
 */
function turnOf(api, body, tools, history) {
	const toolCalls = history.flatMap((entry) => entry.calls ?? []);
	const toolResults = history
		.filter((entry) => entry.result)
		.map(({ result }) => ({
			callId: result.callId,
			name: toolCalls.find((call) => call.id === result.callId)?.name ?? null,
			output: contentText(result.output),
		}));
	const userText = history
		.filter((entry) => entry.user !== undefined)
		.map((entry) => contentText(entry.user))
		.join('\n');
	return {
		api,
		model: body.model,
		stream: body.stream === true,
		tools,
		toolCalls,
		toolResults,
		userText,
	};
}

/** One Chat Completions request as a turn. */
function chatTurn(body) {
	const tools = (body.tools ?? [])
		.filter((tool) => tool.type === 'function')
		.map(({ function: fn }) => ({
			name: fn.name,
			description: fn.description ?? '',
			parameters: fn.parameters ?? {},
		}));
	const history = (body.messages ?? []).map((message) => ({
		user: message.role === 'user' ? message.content : undefined,
		calls: (message.tool_calls ?? []).map((call) => ({
			id: call.id,
			name: call.function?.name,
			arguments: call.function?.arguments,
		})),
		result:
			message.role === 'tool'
				? { callId: message.tool_call_id, output: message.content }
				: undefined,
	}));
	return turnOf('chat', body, tools, history);
}

/** One Responses API request as a turn. */
function responsesTurn(body) {
	const tools = (body.tools ?? [])
		.filter((tool) => tool.type === 'function')
		.map((tool) => ({
			name: tool.name,
			description: tool.description ?? '',
			parameters: tool.parameters ?? {},
		}));
	const input =
		typeof body.input === 'string' ? [{ role: 'user', content: body.input }] : (body.input ?? []);
	const history = input.map((item) => ({
		user: item.role === 'user' ? item.content : undefined,
		calls:
			item.type === 'function_call'
				? [{ id: item.call_id, name: item.name, arguments: item.arguments }]
				: [],
		result:
			item.type === 'function_call_output'
				? { callId: item.call_id, output: item.output }
				: undefined,
	}));
	return turnOf('responses', body, tools, history);
}

async function startFakeOpenAi({ reply, apiKey = 'sk-fake-openai-key' } = {}) {
	if (typeof reply !== 'function') throw new Error('startFakeOpenAi needs a reply(turn) function');
	const requests = [];
	let counter = 0;
	const nextId = (prefix) => `${prefix}_${String((counter += 1)).padStart(6, '0')}`;
	const now = () => Math.floor(Date.now() / 1000);
	const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

	/** The answer as normalized tool calls (with ids) or text. */
	function decide(turn) {
		const answer = reply(turn);
		if (answer?.toolCalls?.length) {
			return {
				toolCalls: answer.toolCalls.map((call) => ({
					id: nextId('call'),
					itemId: nextId('fc'),
					name: call.name,
					arguments: JSON.stringify(call.arguments ?? {}),
				})),
			};
		}
		if (typeof answer?.text === 'string') return { text: answer.text };
		throw new Error(
			`fake-openai: reply() returned neither toolCalls nor text: ${JSON.stringify(answer)}`,
		);
	}

	function sendJson(res, status, value) {
		res.writeHead(status, { 'content-type': 'application/json' });
		res.end(JSON.stringify(value));
	}

	function sendEvents(res, events) {
		res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
		for (const event of events) {
			if (event === '[DONE]') res.write('data: [DONE]\n\n');
			else if (event.type) res.write(`event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`);
			else res.write(`data: ${JSON.stringify(event)}\n\n`);
		}
		res.end();
	}

	function chatCompletion(res, body, answer) {
		const id = nextId('chatcmpl');
		const base = { id, created: now(), model: body.model };
		const toolCalls = answer.toolCalls?.map((call) => ({
			id: call.id,
			type: 'function',
			function: { name: call.name, arguments: call.arguments },
		}));
		const finishReason = toolCalls ? 'tool_calls' : 'stop';
		if (body.stream !== true) {
			return sendJson(res, 200, {
				...base,
				object: 'chat.completion',
				choices: [
					{
						index: 0,
						message: {
							role: 'assistant',
							content: toolCalls ? null : answer.text,
							...(toolCalls ? { tool_calls: toolCalls } : {}),
							refusal: null,
						},
						logprobs: null,
						finish_reason: finishReason,
					},
				],
				usage,
			});
		}
		// Streamed: the role first, then each tool call's name and its arguments in two pieces (as
		// OpenAI splits them), or the text in two pieces; then the finish reason and, when asked
		// for, a usage chunk without choices.
		const chunk = (delta, finish = null) => ({
			...base,
			object: 'chat.completion.chunk',
			choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }],
		});
		const events = [chunk({ role: 'assistant', content: toolCalls ? null : '' })];
		if (toolCalls) {
			toolCalls.forEach((call, index) => {
				const half = Math.ceil(call.function.arguments.length / 2);
				events.push(
					chunk({
						tool_calls: [
							{
								index,
								id: call.id,
								type: 'function',
								function: { name: call.function.name, arguments: '' },
							},
						],
					}),
					chunk({
						tool_calls: [
							{ index, function: { arguments: call.function.arguments.slice(0, half) } },
						],
					}),
					chunk({
						tool_calls: [{ index, function: { arguments: call.function.arguments.slice(half) } }],
					}),
				);
			});
		} else {
			const half = Math.ceil(answer.text.length / 2);
			events.push(
				chunk({ content: answer.text.slice(0, half) }),
				chunk({ content: answer.text.slice(half) }),
			);
		}
		events.push(chunk({}, finishReason));
		if (body.stream_options?.include_usage) {
			events.push({ ...base, object: 'chat.completion.chunk', choices: [], usage });
		}
		events.push('[DONE]');
		return sendEvents(res, events);
	}

	function responsesAnswer(res, body, answer) {
		const output = answer.toolCalls
			? answer.toolCalls.map((call) => ({
					type: 'function_call',
					id: call.itemId,
					call_id: call.id,
					name: call.name,
					arguments: call.arguments,
					status: 'completed',
				}))
			: [
					{
						type: 'message',
						id: nextId('msg'),
						role: 'assistant',
						status: 'completed',
						content: [{ type: 'output_text', text: answer.text, annotations: [] }],
					},
				];
		const response = {
			id: nextId('resp'),
			object: 'response',
			created_at: now(),
			status: 'completed',
			error: null,
			incomplete_details: null,
			model: body.model,
			output,
			parallel_tool_calls: true,
			tool_choice: body.tool_choice ?? 'auto',
			tools: body.tools ?? [],
			text: { format: { type: 'text' } },
			metadata: {},
			usage: { input_tokens: 10, output_tokens: 5, total_tokens: 15 },
		};
		if (body.stream !== true) return sendJson(res, 200, response);
		// Streamed: the events the Responses API sends for these output items, in order.
		let sequence = 0;
		const event = (type, fields) => ({ type, sequence_number: sequence++, ...fields });
		const events = [
			event('response.created', { response: { ...response, status: 'in_progress', output: [] } }),
		];
		output.forEach((item, outputIndex) => {
			if (item.type === 'function_call') {
				events.push(
					event('response.output_item.added', {
						output_index: outputIndex,
						item: { ...item, arguments: '', status: 'in_progress' },
					}),
					event('response.function_call_arguments.delta', {
						item_id: item.id,
						output_index: outputIndex,
						delta: item.arguments,
					}),
					event('response.function_call_arguments.done', {
						item_id: item.id,
						output_index: outputIndex,
						arguments: item.arguments,
					}),
					event('response.output_item.done', { output_index: outputIndex, item }),
				);
			} else {
				const { text } = item.content[0];
				const part = { type: 'output_text', text: '', annotations: [] };
				events.push(
					event('response.output_item.added', {
						output_index: outputIndex,
						item: { ...item, status: 'in_progress', content: [] },
					}),
					event('response.content_part.added', {
						item_id: item.id,
						output_index: outputIndex,
						content_index: 0,
						part,
					}),
					event('response.output_text.delta', {
						item_id: item.id,
						output_index: outputIndex,
						content_index: 0,
						delta: text,
					}),
					event('response.output_text.done', {
						item_id: item.id,
						output_index: outputIndex,
						content_index: 0,
						text,
					}),
					event('response.content_part.done', {
						item_id: item.id,
						output_index: outputIndex,
						content_index: 0,
						part: { ...part, text },
					}),
					event('response.output_item.done', { output_index: outputIndex, item }),
				);
			}
		});
		events.push(event('response.completed', { response }));
		return sendEvents(res, events);
	}

	const server = http.createServer((req, res) => {
		const chunks = [];
		req.on('data', (chunk) => chunks.push(chunk));
		req.on('end', () => {
			const path = new URL(req.url, 'http://127.0.0.1').pathname.replace(/\/+$/, '');
			const text = Buffer.concat(chunks).toString('utf8');
			let body = null;
			try {
				body = text ? JSON.parse(text) : null;
			} catch {
				body = null;
			}
			const record = {
				method: req.method,
				path,
				api: null,
				stream: body?.stream === true,
				body,
				authorized: req.headers.authorization === `Bearer ${apiKey}`,
				turn: null,
			};
			requests.push(record);
			try {
				if (req.method === 'GET' && path === '/v1/models') {
					return sendJson(res, 200, {
						object: 'list',
						data: MODELS.map((id) => ({
							id,
							object: 'model',
							created: 1700000000,
							owned_by: 'fake-openai',
						})),
					});
				}
				if (
					req.method === 'POST' &&
					(path === '/v1/chat/completions' || path === '/v1/responses')
				) {
					if (!record.authorized) {
						return sendJson(res, 401, {
							error: {
								message: 'Incorrect API key provided',
								type: 'invalid_request_error',
								code: 'invalid_api_key',
							},
						});
					}
					if (!body) {
						return sendJson(res, 400, {
							error: { message: 'The body is not JSON', type: 'invalid_request_error' },
						});
					}
					const chat = path === '/v1/chat/completions';
					record.api = chat ? 'chat' : 'responses';
					record.turn = chat ? chatTurn(body) : responsesTurn(body);
					const answer = decide(record.turn);
					record.answer = answer;
					return chat ? chatCompletion(res, body, answer) : responsesAnswer(res, body, answer);
				}
				return sendJson(res, 404, {
					error: {
						message: `fake-openai has no ${req.method} ${path}`,
						type: 'invalid_request_error',
					},
				});
			} catch (error) {
				record.error = error.message;
				return sendJson(res, 500, { error: { message: error.message, type: 'server_error' } });
			}
		});
	});
	await new Promise((resolve, reject) => {
		server.once('error', reject);
		server.listen(0, '127.0.0.1', resolve);
	});
	const url = `http://127.0.0.1:${server.address().port}`;
	return {
		url,
		baseUrl: `${url}/v1`,
		apiKey,
		requests,
		/** The model calls (chat completions and responses), oldest first. */
		get modelCalls() {
			return requests.filter((request) => request.turn);
		},
		close: () =>
			new Promise((resolve) => {
				server.closeAllConnections?.();
				server.close(() => resolve());
			}),
	};
}

module.exports = { startFakeOpenAi, chatTurn, responsesTurn };
