'use strict';

const { invalid } = require('./http-util');

const DEFAULTS = {
	status429Count: 0,
	retryAfterSeconds: 1,
	dropAfterCommitCount: 0,
	dropAfterCommitRate: 0,
	latencyMs: 0,
	latencyJitterMs: 0,
	listChurnReads: 0,
	listChurnCreates: 0,
	listChurnDeletes: 0,
	listChurnDeleteAt: 0.5,
	listPageDelayMs: 0,
	listPageFailures: 0,
	listPageFailFrom: 2,
	codeLimit: 0,
	patchFailures: 0,
	patchFailAfter: 0,
	deliveryFailRate: 0,
};

function checkNumber(errors, patch, name, { max = Infinity, integer = true } = {}) {
	if (patch[name] === undefined) return;
	const value = patch[name];
	if (
		typeof value !== 'number' ||
		value < 0 ||
		value > max ||
		(integer && !Number.isInteger(value))
	) {
		errors[name] =
			`${name} must be a ${integer ? 'whole ' : ''}number from 0${max === Infinity ? '' : ` to ${max}`}.`;
	}
}

/** Failures the control API can inject, so clients' retry paths are testable without luck. */
function createFaults({ latencyMs = 0 } = {}) {
	const startup = { ...DEFAULTS, latencyMs };
	let current = { ...startup };

	return {
		get: () => ({ ...current }),
		set(patch) {
			const errors = {};
			for (const name of Object.keys(patch)) {
				if (!(name in DEFAULTS))
					errors[name] = `${name} is not a fault; known: ${Object.keys(DEFAULTS).join(', ')}.`;
			}
			checkNumber(errors, patch, 'status429Count');
			checkNumber(errors, patch, 'retryAfterSeconds');
			checkNumber(errors, patch, 'dropAfterCommitCount');
			checkNumber(errors, patch, 'dropAfterCommitRate', { max: 1, integer: false });
			checkNumber(errors, patch, 'latencyMs');
			checkNumber(errors, patch, 'latencyJitterMs');
			checkNumber(errors, patch, 'listChurnReads');
			checkNumber(errors, patch, 'listChurnCreates');
			checkNumber(errors, patch, 'listChurnDeletes');
			checkNumber(errors, patch, 'listChurnDeleteAt', { max: 1, integer: false });
			checkNumber(errors, patch, 'listPageDelayMs');
			checkNumber(errors, patch, 'listPageFailures');
			checkNumber(errors, patch, 'listPageFailFrom');
			checkNumber(errors, patch, 'codeLimit');
			checkNumber(errors, patch, 'patchFailures');
			checkNumber(errors, patch, 'patchFailAfter');
			checkNumber(errors, patch, 'deliveryFailRate', { max: 1, integer: false });
			if (Object.keys(errors).length) throw invalid(errors);
			current = { ...current, ...patch };
			return { ...current };
		},
		/** Spends one injected 429; returns its Retry-After seconds, or null when none is left. */
		take429() {
			if (current.status429Count <= 0) return null;
			current.status429Count -= 1;
			return current.retryAfterSeconds;
		},
		/** Whether the create just committed should lose its answer (the socket is destroyed). */
		takeDropAfterCommit() {
			if (current.dropAfterCommitCount > 0) {
				current.dropAfterCommitCount -= 1;
				return true;
			}
			return current.dropAfterCommitRate > 0 && Math.random() < current.dropAfterCommitRate;
		},
		/** Whether the next webhook delivery attempt fails unsent, as when the receiver is away. */
		takeDeliveryFailure: () =>
			current.deliveryFailRate > 0 && Math.random() < current.deliveryFailRate,
		/**
		 * How long the next API request waits before it is handled: latencyMs, plus a random part
		 * of up to latencyJitterMs, as requests take different times over a network (requests sent
		 * together are then handled in any order).
		 */
		delayMs: () => current.latencyMs + Math.random() * current.latencyJitterMs,
		/** The plan's number of live codes per workspace, as a plan limit (0: no limit). */
		codeLimit: () => current.codeLimit,
		/**
		 * Spends one churning list read: what the workspace's codes undergo just before the next
		 * page of GET /qr-codes is cut (`deleteAt`: where the deleted codes sit, 0 = first in the
		 * list, 1 = last). Null when none is left.
		 */
		/** Milliseconds per later page: pages of one list asked at once are cut last page first. */
		listPageDelayMs: () => current.listPageDelayMs,
		/**
		 * Spends one failing list read when `page` of GET /qr-codes is at or after
		 * `listPageFailFrom`; returns its Retry-After seconds, or null when it goes through.
		 */
		takeListPageFailure(page) {
			if (current.listPageFailures <= 0 || page < current.listPageFailFrom) return null;
			current.listPageFailures -= 1;
			return current.retryAfterSeconds;
		},
		/** Whether this PATCH of a code fails: `patchFailAfter` more go through, then `patchFailures` fail. */
		takePatchFailure() {
			if (current.patchFailures <= 0) return false;
			if (current.patchFailAfter > 0) {
				current.patchFailAfter -= 1;
				return false;
			}
			current.patchFailures -= 1;
			return true;
		},
		takeListChurn() {
			if (current.listChurnReads <= 0) return null;
			current.listChurnReads -= 1;
			return {
				creates: current.listChurnCreates,
				deletes: current.listChurnDeletes,
				deleteAt: current.listChurnDeleteAt,
			};
		},
		reset() {
			current = { ...startup };
		},
	};
}

module.exports = { createFaults };
