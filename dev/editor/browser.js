'use strict';
/**
 * Drives n8n's editor in Debian's Chromium through playwright-core, for the editor tests
 * (test/e2e/editor.e2e.js) and the README screenshots (dev/cli/screenshots.js), so both look at
 * the editor through the same code.
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
 * against n8n 2.40.7. Every wait is bounded; none of them is an assertion.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const { ensureChromium } = require('./chromium');
const { waitFor } = require('../wait-for');

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

/** n8n answers the editor slowly while other n8n processes share the two cores: be patient. */
const DEFAULT_TIMEOUT_MS = 60000;

const testId = (id) => `[data-test-id="${id}"]`;
const cssString = (value) => JSON.stringify(String(value));

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
		/** A new tab on the editor of `n8n`, not signed in. */
		async newEditor(n8n) {
			const page = await context.newPage();
			return editorPage(page, n8n, log);
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

/** The page-driving helpers for one tab of n8n's editor (`n8n` from dev/n8n/instance.js). */
function editorPage(page, n8n, log = () => {}) {
	const ndv = page.locator(testId('ndv'));
	const parameters = ndv.locator(testId('node-parameters'));
	const outputPanel = ndv.locator(testId('output-panel'));

	const editor = {
		page,
		n8n,
		/** The open node panel (n8n calls it the NDV), its parameter pane and its output pane. */
		ndv,
		parameters,
		outputPanel,

		/** Signs in through the editor's own sign-in form, as a person would. */
		async signIn({ email = n8n.owner.email, password = n8n.owner.password } = {}) {
			await page.goto(`${n8n.url}/signin`, { waitUntil: 'domcontentloaded' });
			const form = page.locator(testId('signin-form'));
			await form.waitFor({ state: 'visible', timeout: 120000 });
			await form.locator('input[name="emailOrLdapLoginId"]').fill(email);
			await form.locator('input[name="password"]').fill(password);
			await form.locator(testId('form-submit-button')).click();
			await page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 120000 });
			log(`signed in to ${n8n.url} as ${email}`);
			return editor;
		},

		/** Opens a saved workflow and waits until its nodes are on the canvas. */
		async openWorkflow(workflowId) {
			await page.goto(`${n8n.url}/workflow/${workflowId}`, { waitUntil: 'domcontentloaded' });
			await page
				.locator(testId('canvas-node'))
				.first()
				.waitFor({ state: 'visible', timeout: 120000 });
			return editor;
		},

		/** The canvas node with this name. */
		canvasNode(name) {
			return page.locator(`${testId('canvas-node')}[data-node-name=${cssString(name)}]`);
		},

		/**
		 * Opens a node's panel by double-clicking it on the canvas (nodes must not overlap: the
		 * click lands on whatever is on top).
		 */
		async openNode(name) {
			const node = editor.canvasNode(name);
			await node.waitFor({ state: 'visible' });
			await node.dblclick();
			await ndv.waitFor({ state: 'visible' });
			await parameters.waitFor({ state: 'visible' });
			return editor;
		},

		/** Closes the open panel and waits until it is gone. */
		async closeNode() {
			if (!(await ndv.isVisible())) return editor;
			await ndv.locator(testId('ndv-close-button')).first().click();
			await ndv.waitFor({ state: 'hidden' });
			return editor;
		},

		/**
		 * The parameters the open panel shows, in order: `{ name, label }` per visible label,
		 * `name` being the parameter's internal name (the label's `for`). n8n 2.x leaves hidden
		 * parameters out of the DOM; the visibility check also skips collapsed sections.
		 */
		async visibleParameters() {
			return parameters.evaluate((root) => {
				// A label's first text is its title; the rest is the Fixed/Expression switch.
				const text = (label) =>
					(label.querySelector('.n8n-text') ?? label).textContent.replace(/\s+/g, ' ').trim();
				const visible = (element) => {
					const style = window.getComputedStyle(element);
					const box = element.getBoundingClientRect();
					return style.display !== 'none' && style.visibility !== 'hidden' && box.width > 0;
				};
				return [...root.querySelectorAll('[data-test-id="input-label"] label')]
					.filter(visible)
					.map((label) => ({ name: label.getAttribute('for') || null, label: text(label) }))
					.filter((entry) => entry.label);
			});
		},

		/** The labels of the parameters the open panel shows, in order, as displayed. */
		async parameterLabels() {
			return (await editor.visibleParameters()).map((entry) => entry.label);
		},

		/**
		 * The parameters the open panel flags with n8n's issue icon (`parameter-issues`, the red
		 * triangle beside the field), as `{ name, label }`.
		 */
		async parameterIssues() {
			const icons = ndv.locator(`${testId('parameter-issues')}:visible`);
			return icons.evaluateAll((elements) =>
				elements.map((icon) => {
					const label = icon
						.closest('[data-test-id="parameter-item"]')
						?.querySelector('[data-test-id="input-label"] label');
					const title = label?.querySelector('.n8n-text') ?? label;
					return {
						name: label?.getAttribute('for') || null,
						label: title ? title.textContent.replace(/\s+/g, ' ').trim() : null,
					};
				}),
			);
		},

		/**
		 * The issues the canvas reports for a node (the warning triangle on it, `node-issues`):
		 * `[]` when there is no triangle, else the lines of its hover text (e.g. 'Parameter "URL"
		 * is required.'). This is n8n's verdict on the whole node, hidden parameters included.
		 * Call it with the panel closed.
		 */
		async nodeIssues(name) {
			const icon = editor.canvasNode(name).locator(testId('node-issues'));
			if ((await icon.count()) === 0) return [];
			await icon.hover();
			const tooltip = page.locator(`${testId('tooltip-content')}:visible`).last();
			await tooltip.waitFor({ state: 'visible', timeout: 10000 }).catch(() => {});
			const lines = await tooltip
				.locator('li')
				.allInnerTexts()
				.catch(() => []);
			// Move away so the tooltip does not cover the next screenshot or click.
			await page.mouse.move(1, 1);
			return lines.length ? lines.map((line) => line.trim()) : ['(issue icon without text)'];
		},

		/** Types into a text parameter, by its internal name, and commits the value. */
		async fillParameter(name, value) {
			const input = ndv
				.locator(testId(`parameter-input-${name}`))
				.locator('input, textarea')
				.first();
			await input.click();
			await input.fill(value);
			// n8n commits a typed value on blur. Blur the field itself: Tab would move the focus
			// to the next control and open it when that is a dropdown.
			await input.evaluate((element) => element.blur());
			return editor;
		},

		/**
		 * Picks an option of an options parameter (by internal name) by its displayed name, also
		 * one the node loads from the API (the list opens once they have loaded).
		 */
		async selectOption(name, optionName) {
			// The select's own input: a click on the parameter's wrapper does not open the list of
			// options a node loads.
			await ndv.locator(`${testId(`parameter-input-${name}`)} input`).click();
			// An option's accessible name includes its description: match its headline exactly.
			const option = page
				.locator(`${testId('parameter-input-item')}:visible`)
				.filter({ has: page.locator('.option-headline').getByText(optionName, { exact: true }) });
			await option.click();
			await option.waitFor({ state: 'hidden' });
			return editor;
		},

		/** A resource locator parameter (`resource-locator-<name>`) of the open panel. */
		resourceLocator(name) {
			return ndv.locator(testId(`resource-locator-${name}`));
		},

		/** Opens a resource locator's list ("From List" mode): n8n then calls the list search. */
		async openResourceList(name) {
			await editor.resourceLocator(name).locator(testId('rlc-input')).click();
			await page.locator(`${testId('rlc-search')}:visible`).waitFor({ state: 'visible' });
			return editor;
		},

		/** The entries the open resource list shows, as displayed. */
		async resourceListItems() {
			return page
				.locator(`${testId('rlc-item')}:visible`)
				.allInnerTexts()
				.then((texts) => texts.map((text) => text.trim()));
		},

		/** Types into the open resource list's search box (n8n searches as you type). */
		async searchResourceList(text) {
			const box = page.locator(`${testId('rlc-search')}:visible`);
			// The test id sits on the input itself in n8n 2.x, on a wrapper in older editors.
			const isInput = await box.evaluate((element) => element.tagName === 'INPUT');
			await (isInput ? box : box.locator('input')).fill(text);
			return editor;
		},

		/** Picks an entry of the open resource list by its displayed name. */
		async pickResource(displayName) {
			await page
				.locator(`${testId('rlc-item')}:visible`)
				.filter({ hasText: displayName })
				.first()
				.click();
			return editor;
		},

		/** The value a resource locator displays (in list mode: the picked entry's name). */
		async resourceLocatorValue(name) {
			return editor.resourceLocator(name).locator(testId('rlc-input')).inputValue();
		},

		/**
		 * Starts listening for a test event, as the trigger panel's button does (n8n 2.40 labels
		 * it "Execute step"; older ones "Listen for test event"), and waits until the panel
		 * says it is listening. n8n then registers the trigger's test webhook.
		 */
		async listenForTestEvent() {
			await ndv.locator(testId('trigger-execute-button')).first().click();
			await ndv.locator(testId('trigger-listening')).first().waitFor({ state: 'visible' });
			return editor;
		},

		/**
		 * Runs the open node as its panel's "Execute step" button does (n8n runs the nodes before
		 * it first) and waits until the output pane shows items; resolves with the pane's text.
		 */
		async executeOpenNode({ timeoutMs = 120000 } = {}) {
			await ndv.locator(testId('node-execute-button')).first().click();
			return poll(
				async () => {
					const text = await outputPanel.innerText();
					return /\b\d+ items?\b/.test(text) ? text : null;
				},
				{ timeoutMs, what: 'the output pane to show the items of the run' },
			);
		},

		/** The text of the open panel's output pane. */
		async outputText() {
			return outputPanel.innerText();
		},

		/** Switches the output pane to 'Schema', 'Table' or 'JSON'. */
		async showOutputAs(mode) {
			await outputPanel.getByRole('radio', { name: mode, exact: true }).click();
			return editor;
		},

		/** Runs the whole workflow from the canvas' "Execute workflow" button. */
		async executeWorkflow() {
			await page.locator(testId('execute-workflow-button')).click();
			return editor;
		},

		/** Waits until the canvas marks a node as having run successfully (the green tick). */
		async waitForNodeSuccess(name, { timeoutMs = 120000 } = {}) {
			await editor
				.canvasNode(name)
				.locator(testId('canvas-node-status-success'))
				.waitFor({ state: 'visible', timeout: timeoutMs });
			return editor;
		},

		/** Opens the nodes panel (n8n's node creator) from the canvas' "+" button. */
		async openNodesPanel() {
			await page.locator(testId('node-creator-plus-button')).first().click();
			await page.locator(testId('node-creator-search-bar')).waitFor({ state: 'visible' });
			return editor;
		},

		/** Types into the nodes panel's search box (it searches as you type). */
		async searchNodesPanel(text) {
			await page.locator(testId('node-creator-search-bar')).fill(text);
			return editor;
		},

		/**
		 * The entries the nodes panel lists, in order, as displayed: `{ name, description }` (a
		 * node's actions, once it is opened, are entries too).
		 */
		async nodesPanelEntries() {
			return page.locator(`${testId('item-iterator-item')}:visible`).evaluateAll((items) =>
				items
					.map((item) => {
						const text = (id) =>
							item
								.querySelector(`[data-test-id="${id}"]`)
								?.textContent.replace(/\s+/g, ' ')
								.trim() ?? null;
						return {
							name: text('node-creator-item-name'),
							description: text('node-creator-item-description'),
						};
					})
					.filter((entry) => entry.name),
			);
		},

		/** Clicks the nodes panel's entry with this name (a node opens its actions; an action adds it). */
		async pickNodesPanelEntry(name) {
			await page
				.locator(`${testId('item-iterator-item')}:visible`)
				.filter({
					has: page.locator(testId('node-creator-item-name')).getByText(name, { exact: true }),
				})
				.first()
				.click();
			return editor;
		},

		/** The credential the open panel's credential field shows, as displayed (null without one). */
		async selectedCredential() {
			const field = ndv.locator(testId('node-credentials-select')).first();
			await field.waitFor({ state: 'visible' });
			return field.evaluate((element) => {
				const input = element.querySelector('input');
				const shown = element.querySelector('.el-select__selected-item:not(.is-hidden)');
				return (shown?.textContent || input?.value || '').trim() || null;
			});
		},

		/** Where the open panel's "Docs" link leads (null without one). */
		async docsLink() {
			const links = await ndv
				.locator('a[href]')
				.evaluateAll((anchors) =>
					anchors.map((anchor) => ({ text: anchor.textContent.trim(), href: anchor.href })),
				);
			return links.find((link) => link.text === 'Docs')?.href ?? null;
		},

		/** The names of the nodes on the canvas. */
		async canvasNodeNames() {
			return page
				.locator(testId('canvas-node'))
				.evaluateAll((nodes) => nodes.map((node) => node.getAttribute('data-node-name')));
		},

		/** What a canvas node shows (its name and subtitle), as displayed. */
		async canvasNodeText(name) {
			return (await editor.canvasNode(name).innerText()).replace(/\s+/g, ' ').trim();
		},

		/** Closes n8n's toasts and moves the pointer out of the way (clean screenshots and clicks). */
		async dismissOverlays() {
			await page.mouse.move(1, 1);
			const closers = page.locator('.el-notification:visible .el-notification__closeBtn');
			for (let left = await closers.count(); left > 0; left -= 1) {
				await closers
					.first()
					.click({ timeout: 5000 })
					.catch(() => {});
			}
			await page
				.locator('.el-notification:visible')
				.first()
				.waitFor({ state: 'hidden', timeout: 10000 })
				.catch(() => {});
			return editor;
		},

		/** A PNG of the viewport, after the overlays are gone. */
		async screenshot(file) {
			await editor.dismissOverlays();
			fs.mkdirSync(path.dirname(file), { recursive: true });
			await page.screenshot({ path: file, animations: 'disabled' });
			return file;
		},
	};
	return editor;
}

module.exports = { launchEditorBrowser, poll, settle };
