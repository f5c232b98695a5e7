'use strict';
/**
 * The one bounded polling helper of dev/, test/ and bench/: every wait for something
 * asynchronous (n8n starting or reacting, a delivery, an execution, a lock) goes through it, so
 * each wait has a bound and says what it waited for when the bound is hit. The timeout only
 * bounds a wait; it is never the thing asserted.
 */

const GIVE_UP = Symbol('waitFor.giveUp');

/**
 * Marks an error that must end a wait at once instead of counting as "not yet" (a process that
 * exited while it was waited for, an answer that will not change by asking again).
 */
function giveUp(error) {
	return Object.assign(error, { [GIVE_UP]: true });
}

/**
 * Polls `probe` until `until(value)` holds (by default: the value is truthy) and resolves with
 * that value. An error thrown by the probe counts as "not yet" and is named if time runs out,
 * unless it was marked with giveUp(). After `timeoutMs` it rejects naming `what` (a string, or a
 * function of the last value for a message that shows how far things got); with
 * `resolveOnTimeout` it resolves with the last value instead, for the caller to assert on.
 */
async function waitFor(
	probe,
	{
		timeoutMs = 60000,
		intervalMs = 250,
		what = 'a condition',
		until = Boolean,
		resolveOnTimeout = false,
	} = {},
) {
	const deadline = Date.now() + timeoutMs;
	let value;
	let failure;
	for (;;) {
		try {
			value = await probe();
			failure = undefined;
			if (until(value)) return value;
		} catch (error) {
			if (error?.[GIVE_UP]) throw error;
			failure = error;
		}
		if (Date.now() > deadline) {
			if (resolveOnTimeout && !failure) return value;
			const awaited = typeof what === 'function' ? what(value) : what;
			throw new Error(
				`Timed out after ${timeoutMs / 1000} s waiting for ${awaited}${failure ? `: ${failure.message}` : ''}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

module.exports = { waitFor, giveUp };
