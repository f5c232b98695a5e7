'use strict';
/** What the trigger tests under other readings share: a sandbox per describe block, one receiver. */
const { startReceiver, collected, poll } = require('../engine/triggers');
const { startSandbox } = require('../support/sandbox');

/** A sandbox answering with `readings`, reset before each test of the describe block. */
function useSandbox(readings) {
	const context = {};
	beforeAll(async () => {
		context.sandbox = await startSandbox({ readings, rateLimitPerMinute: 60000 });
	});
	afterAll(() => context.sandbox.close());
	beforeEach(async () => {
		await context.sandbox.control('POST', '/reset');
		collected.length = 0;
	});
	return context;
}

/** The local receiver webhook URLs point at, for the whole file: `receiver.current`. */
function useReceiver() {
	const receiver = {};
	beforeAll(async () => {
		receiver.current = await startReceiver();
	});
	afterAll(() => receiver.current.close());
	return receiver;
}

/** The ids a poll emitted (none when it returned null). */
const polledIds = (result) => (result === null ? [] : result[0].map((item) => item.json.id));

/** Clock jumps (seconds, up to a day) and how many records are made after each. */
const ROUNDS = [
	[0, 2],
	[30, 1],
	[0, 0],
	[3600, 3],
	[86400, 2],
	[5, 0],
];

/**
 * Runs the polling trigger over ROUNDS: each round moves the sandbox clock, makes records with
 * `add(count, prefix)` and polls twice. `checkRound(emitted, made)` sees what the first poll of a
 * round emitted and what that round made. Returns every record made and every id emitted.
 */
async function pollOverRounds(sandbox, setup, add, checkRound) {
	const added = [];
	const emitted = [];
	for (const [seconds, count] of ROUNDS) {
		await sandbox.control('POST', '/clock/advance', { seconds });
		added.push(...(await add(count, `batch ${added.length}`)));
		const first = polledIds(await poll(setup));
		checkRound(first, added.slice(added.length - count));
		emitted.push(...first, ...polledIds(await poll(setup)));
	}
	return { added, emitted };
}

module.exports = { useSandbox, useReceiver, pollOverRounds };
