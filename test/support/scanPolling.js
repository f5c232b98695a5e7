'use strict';
// Helpers for the tests of the polling trigger's scan events (test/polling/scanEvents, newScans,
// milestones, quiet): a sandbox, a polling trigger over it, scans through the control API, and
// a clock that moves n8n and the sandbox forward together (both run in this process and read
// Date.now()).
const { createWorkflow, poll, POLLING_TYPE } = require('../engine/triggers');
const { startSandbox, createQrCode } = require('./sandbox');

const DAY = 24 * 60 * 60 * 1000;

function useScanPolling() {
	const env = { sandbox: undefined, shiftMs: 0 };
	const realNow = Date.now.bind(Date);
	let spy;

	beforeAll(async () => {
		env.sandbox = await startSandbox();
	});
	afterAll(async () => {
		await env.sandbox.close();
	});
	beforeEach(async () => {
		env.shiftMs = 0;
		spy = jest.spyOn(Date, 'now').mockImplementation(() => realNow() + env.shiftMs);
		await env.sandbox.control('POST', '/reset');
	});
	afterEach(() => spy.mockRestore());

	/** A polling trigger on `parameters` (over `staticData` to stand for a restarted n8n). */
	env.trigger = (parameters, staticData) =>
		createWorkflow({
			type: POLLING_TYPE,
			parameters,
			credentials: { apiKey: env.sandbox.keys.readWrite, baseUrl: env.sandbox.baseUrl },
			staticData,
		});
	/** The same workflow after a restart: a new workflow object over the saved static data. */
	env.restart = (setup) =>
		env.trigger(setup.node.parameters, JSON.parse(JSON.stringify(setup.workflow.staticData)));
	/** The trigger node's own static data. */
	env.staticOf = (setup) => setup.workflow.staticData['node:Dynamic QR Polling Trigger'] ?? {};
	env.poll = async (setup, options) => {
		const result = await poll(setup, options);
		return result === null ? [] : result[0].map((item) => item.json);
	};
	env.code = (name) => createQrCode(env.sandbox, name);
	env.scan = async (code, times = 1, scannedAt) => {
		for (let i = 0; i < times; i++) {
			await env.sandbox.control('POST', '/scans', {
				qr_code_id: code.id,
				...(scannedAt ? { scanned_at: scannedAt } : {}),
			});
		}
	};
	env.advanceDays = (days) => {
		env.shiftMs += days * DAY;
	};
	env.api = (method, path, body) =>
		require('../../dev/sandbox/client').sandboxClient(env.sandbox).call(method, path, body);
	return env;
}

/** The most entries in any 60 s of `times` (ms): a share of the plan measured at the sandbox. */
function busiestMinute(times) {
	const sorted = [...times].sort((a, b) => a - b);
	let most = 0;
	for (let start = 0, end = 0; end < sorted.length; end++) {
		while (sorted[end] - sorted[start] >= 60000) start++;
		most = Math.max(most, end - start + 1);
	}
	return most;
}

module.exports = { useScanPolling, busiestMinute, DAY };
