'use strict';
/**
 * Drives n8n's editor in Debian's Chromium through playwright-core, for the editor tests
 * (test/e2e/editor.e2e.js) and the README screenshots (dev/cli/screenshots.js), so both look at
 * the editor through the same code. This file starts the browser; each tab is a set of page
 * objects (editor.js, pages/).
 *
 *   const { launchEditorBrowser } = require('./dev/editor/browser');
 *   const browser = await launchEditorBrowser();
 *   const editor = await browser.signIn(n8n);          // n8n from dev/n8n/instance.js
 *   await editor.openWorkflow(workflowId);
 *   await editor.openNode('Create QR code');
 *   await editor.parameterLabels();                      // ['Resource', 'Operation', 'Name', …]
 *   await browser.close();
 *
 * Selectors are n8n's own `data-test-id` attributes (those n8n's Playwright suite uses), checked
 * against n8n 2.41.1 (N8N_VERSIONS.current in dev/n8n/runtime.js, the version the editor tests
 * run). Every wait is bounded; none of them is an assertion.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureChromium } = require('./chromium');
const { createEditor } = require('./editor');
const { DEFAULT_TIMEOUT_MS, poll, settle } = require('./pages/base');

const VIEWPORT = { width: 1440, height: 900 };

/**
 * Flags for a browser in a closed network: without the background-networking ones Chromium keeps
 * trying to reach Google's update, sync and field-trial servers. (`headless: true` makes
 * Playwright pass --headless too; it is listed so the set reads complete.)
 */
const CHROMIUM_ARGS = [
	'--headless',
	'--no-sandbox',
	'--disable-gpu',
	'--disable-quic',
	'--no-first-run',
	'--disable-background-networking',
	'--disable-component-update',
	'--disable-sync',
];

/**
 * Starts Chromium (installing it first when missing) with a fresh profile. Resolves to
 * `{ context, newEditor(), signIn(n8n), close() }`.
 */
async function launchEditorBrowser({ viewport = VIEWPORT, log = () => {} } = {}) {
	const executablePath = await ensureChromium({ log });
	// Required here, not at the top: a missing playwright-core should fail where it is used.
	const { chromium } = require('playwright-core');
	const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'n8n-editor-chromium-'));
	let context;
	try {
		context = await chromium.launchPersistentContext(profile, {
			executablePath,
			headless: true,
			args: CHROMIUM_ARGS,
			viewport,
			deviceScaleFactor: 1,
			locale: 'en-US',
			timezoneId: 'UTC',
			// The editor's first load compiles a lot of JavaScript on a busy machine.
			timeout: 120000,
		});
	} catch (error) {
		fs.rmSync(profile, { recursive: true, force: true });
		throw error;
	}
	context.setDefaultTimeout(DEFAULT_TIMEOUT_MS);
	context.setDefaultNavigationTimeout(120000);

	return {
		context,
		/** A new tab on the editor of `n8n`, not signed in: its page objects (editor.js). */
		async newEditor(n8n) {
			const page = await context.newPage();
			return createEditor(page, n8n, log);
		},
		/** A new tab signed in as n8n's owner (startN8n's `owner`). */
		async signIn(n8n) {
			const editor = await this.newEditor(n8n);
			await editor.signIn();
			return editor;
		},
		async close() {
			try {
				await context.close();
			} finally {
				fs.rmSync(profile, { recursive: true, force: true });
			}
		},
	};
}

module.exports = { launchEditorBrowser, poll, settle };
