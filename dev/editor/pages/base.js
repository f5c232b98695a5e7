'use strict';
/**
 * What every page object of the editor shares: n8n's `data-test-id` selectors (those n8n's own
 * Playwright suite uses) and the bounded waits. A page object drives one area of the editor in
 * one tab (`page`, a playwright-core Page).
 */
const { waitFor } = require('../../wait-for');

/** n8n answers the editor slowly while other n8n processes share the two cores: be patient. */
const DEFAULT_TIMEOUT_MS = 60000;

const testId = (id) => `[data-test-id="${id}"]`;
const cssString = (value) => JSON.stringify(String(value));

/** Polls `probe` until it returns a truthy value (bounded by the editor's default timeout). */
const poll = (probe, options) => waitFor(probe, { timeoutMs: DEFAULT_TIMEOUT_MS, ...options });

/**
 * Polls `probe` until `done(value)` holds or the time is up, and resolves with the last value
 * either way, for the caller to assert on: the wait only gives n8n time to react, the assertion
 * that follows decides (and shows what the editor displayed when it fails). Only a probe that
 * still throws when the time is up makes it reject.
 */
const settle = (probe, done, { timeoutMs = 15000 } = {}) =>
	waitFor(probe, { until: done, timeoutMs, resolveOnTimeout: true, what: 'the editor to settle' });

class BasePage {
	/** @param {import('playwright-core').Page} page */
	constructor(page) {
		this.page = page;
	}

	/** The element(s) with this `data-test-id`. */
	byTestId(id) {
		return this.page.locator(testId(id));
	}

	/** The visible element(s) with this `data-test-id`. */
	visibleByTestId(id) {
		return this.page.locator(`${testId(id)}:visible`);
	}
}

module.exports = { BasePage, DEFAULT_TIMEOUT_MS, testId, cssString, poll, settle };
