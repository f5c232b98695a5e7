'use strict';
/**
 * Polls `probe` until it returns a truthy value and resolves with it; after `timeoutMs` it fails
 * naming `what` and the probe's last error. The timeout only bounds a wait for something
 * asynchronous (n8n reacting, a delivery, an execution); it is never the thing asserted.
 */
async function waitFor(probe, { timeoutMs = 60000, intervalMs = 250, what = 'a condition' } = {}) {
	const deadline = Date.now() + timeoutMs;
	let last;
	for (;;) {
		try {
			last = await probe();
			if (last) return last;
		} catch (error) {
			last = error;
		}
		if (Date.now() > deadline) {
			throw new Error(
				`Timed out after ${timeoutMs / 1000} s waiting for ${what}${last instanceof Error ? `: ${last.message}` : ''}`,
			);
		}
		await new Promise((resolve) => setTimeout(resolve, intervalMs));
	}
}

module.exports = { waitFor };
