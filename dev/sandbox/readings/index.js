'use strict';

/**
 * Readings: other plausible answers to what the API reference leaves "not shown". The sandbox
 * answers with its own reading (dev/sandbox/README.md); each file in this folder names one
 * alternative a real service might have picked, so the nodes can be proven against it too.
 *
 * A reading module exports:
 *   name         kebab-case, unique; how tests, the control API and `--reading` select it
 *   item         the reference's "not shown" line it reads differently (docs/readings.md)
 *   description  what the service does under this reading, in a sentence
 *   before(call) optional: runs after authentication and routing, before the route. It may change
 *                `call.query` (say, cap `per_page`) or return an answer to send instead
 *                ({ status, json } or { status, buffer, contentType, headers }).
 *   after(call, answer)  optional: returns the answer to send (a reshaped list, another status).
 *   error(call, answer)  optional: returns the error answer to send instead of a JSON error
 *                answer ({ status, json: { message, errors }, headers }), the sandbox's own or a
 *                reading's refusal: another body shape, another status. Errors found before
 *                routing (a bad key, a 429, an unknown path) come with a `call` of
 *                { method, path, headers, memory } alone.
 *   event(type, data)    optional: returns the `data` a webhook event of `type` carries (a flatter
 *                shape, other time formats); the sandbox's own `data` otherwise.
 * `call` is { method, path, route (the template, e.g. /qr-codes/{id}), params, query, headers,
 * body, workspace, memory }. `memory` is an object the reading keeps while it is active (counts
 * of attempts, say); it starts empty each time the reading is switched on.
 */
const fs = require('node:fs');
const path = require('node:path');

const ALL = new Map(
	fs
		.readdirSync(__dirname)
		.filter((file) => file.endsWith('.js') && file !== 'index.js')
		.map((file) => require(path.join(__dirname, file)))
		.map((reading) => [reading.name, reading]),
);

function unknownReadings(names) {
	return names.filter((name) => !ALL.has(name));
}

/** The readings a sandbox answers with; none (the sandbox's own reading) unless set. */
function createReadings(initial = []) {
	let active = [];

	function set(names) {
		const unknown = unknownReadings(names);
		if (unknown.length) {
			throw new RangeError(
				`Unknown reading ${unknown.map((name) => `"${name}"`).join(', ')}. Known: ${[...ALL.keys()].join(', ')}.`,
			);
		}
		active = [...new Set(names)].map((name) => ({ reading: ALL.get(name), memory: {} }));
	}
	set(initial);

	/** An answer passed through one hook of every active reading, in order. */
	const reshape = (hook, call, answer) =>
		active.reduce(
			(current, { reading, memory }) =>
				reading[hook] ? reading[hook]({ ...call, memory }, current) : current,
			answer,
		);

	return {
		set,
		names: () => active.map(({ reading }) => reading.name),
		/** Every known reading, with whether it is on. */
		list: () =>
			[...ALL.values()].map(({ name, item, description }) => ({
				name,
				item,
				description,
				active: active.some(({ reading }) => reading.name === name),
			})),
		before(call) {
			for (const { reading, memory } of active) {
				const answer = reading.before?.({ ...call, memory });
				if (answer) return answer;
			}
			return undefined;
		},
		after: (call, answer) => reshape('after', call, answer),
		/** The error answer as the active readings shape it. */
		error: (call, answer) => reshape('error', call, answer),
		/** The `data` of a webhook event as the active readings shape it. */
		event(type, data) {
			return active.reduce(
				(current, { reading }) => (reading.event ? reading.event(type, current) : current),
				data,
			);
		},
		/** Whether a reading is on (for the few modules that change how records are made). */
		isActive: (name) => active.some(({ reading }) => reading.name === name),
	};
}

module.exports = { createReadings, READING_NAMES: [...ALL.keys()] };
