'use strict';

// Shared by the sandbox's own tests: a started sandbox with a client (dev/sandbox/client.js) for
// each of its keys. Deliveries are received by the one recorder, dev/http-recorder.js.

const { startSandbox } = require('..');
const { sandboxClient } = require('../client');
const { decodePng } = require('../../qr-image');

/** Starts a sandbox before the file's tests and closes it after; returns a getter-backed handle. */
function useSandbox(options = {}) {
	const handle = {};
	beforeAll(async () => {
		const sandbox = await startSandbox(options);
		Object.assign(handle, sandbox, {
			sandbox,
			api: sandboxClient(sandbox, sandbox.keys.readWrite),
			readOnlyApi: sandboxClient(sandbox, sandbox.keys.readOnly),
			basicApi: sandboxClient(sandbox, sandbox.keys.noSmartRedirects),
		});
	});
	afterAll(() => handle.sandbox && handle.sandbox.close());
	return handle;
}

/** The deliveries a recorder (dev/http-recorder.js) received of one event type. */
const ofType = (recorder, type) => recorder.records.filter((record) => record.body.type === type);

/** Lets every delivery attempt under way finish (advancing the clock by 0 runs what is due and waits). */
const settleDeliveries = (sandbox) => sandbox.control('POST', '/clock/advance', { seconds: 0 });

const USER_AGENTS = {
	iphoneSafari:
		'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
	androidChrome:
		'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
	windowsEdge:
		'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0',
	macFirefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.4; rv:125.0) Gecko/20100101 Firefox/125.0',
	ipadSafari:
		'Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
};

module.exports = {
	useSandbox,
	decodePng,
	ofType,
	settleDeliveries,
	USER_AGENTS,
};
