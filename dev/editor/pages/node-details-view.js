'use strict';
/**
 * The node panel n8n calls the NDV: opening and closing it, its execute and listen buttons, its
 * output pane, its credential field and its Docs link. Its parameters are ParameterPanel's and
 * ResourceLocator's.
 */
const { BasePage, testId, poll } = require('./base');

class NodeDetailsView extends BasePage {
	/** @param {import('./canvas-page').CanvasPage} canvas where the nodes are opened from */
	constructor(page, canvas) {
		super(page);
		this.canvas = canvas;
		/** The open panel, its parameter pane and its output pane. */
		this.root = this.byTestId('ndv');
		this.parameters = this.root.locator(testId('node-parameters'));
		this.outputPanel = this.root.locator(testId('output-panel'));
	}

	/**
	 * Opens a node's panel by double-clicking it on the canvas (nodes must not overlap: the
	 * click lands on whatever is on top).
	 */
	async open(name) {
		const node = this.canvas.node(name);
		await node.waitFor({ state: 'visible' });
		await node.dblclick();
		await this.root.waitFor({ state: 'visible' });
		await this.parameters.waitFor({ state: 'visible' });
		return this;
	}

	/** Closes the open panel and waits until it is gone. */
	async close() {
		if (!(await this.root.isVisible())) return this;
		await this.root.locator(testId('ndv-close-button')).first().click();
		await this.root.waitFor({ state: 'hidden' });
		return this;
	}

	/**
	 * Starts listening for a test event, as the trigger panel's button does (n8n 2.41 labels it
	 * "Execute step"; older ones "Listen for test event"), and waits until the panel says it is
	 * listening. n8n then registers the trigger's test webhook.
	 */
	async listenForTestEvent() {
		await this.root.locator(testId('trigger-execute-button')).first().click();
		await this.root.locator(testId('trigger-listening')).first().waitFor({ state: 'visible' });
		return this;
	}

	/** Whether the trigger panel says it is listening for a test event. */
	async isListening() {
		return this.root.locator(testId('trigger-listening')).first().isVisible();
	}

	/**
	 * Runs the open node as its panel's "Execute step" button does (n8n runs the nodes before
	 * it first) and waits until the output pane shows items; resolves with the pane's text.
	 */
	async execute({ timeoutMs = 120000 } = {}) {
		await this.root.locator(testId('node-execute-button')).first().click();
		return poll(
			async () => {
				const text = await this.outputPanel.innerText();
				return /\b\d+ items?\b/.test(text) ? text : null;
			},
			{ timeoutMs, what: 'the output pane to show the items of the run' },
		);
	}

	/** The text of the output pane. */
	async outputText() {
		return this.outputPanel.innerText();
	}

	/** Switches the output pane to 'Schema', 'Table' or 'JSON'. */
	async showOutputAs(mode) {
		await this.outputPanel.getByRole('radio', { name: mode, exact: true }).click();
		return this;
	}

	/** The panel's credential field (the select), once it is visible. */
	async credentialField() {
		const field = this.root.locator(testId('node-credentials-select')).first();
		await field.waitFor({ state: 'visible' });
		return field;
	}

	/** The credential the panel's credential field shows, as displayed (null without one). */
	async selectedCredential() {
		return (await this.credentialField()).evaluate((element) => {
			const input = element.querySelector('input');
			const shown = element.querySelector('.el-select__selected-item:not(.is-hidden)');
			return (shown?.textContent || input?.value || '').trim() || null;
		});
	}

	/**
	 * The credentials the credential field offers, in order, as `{ name, type }` (the type as
	 * displayed), read from its opened list; the list is closed again.
	 */
	async credentialOptions() {
		const field = await this.credentialField();
		await field.click();
		const options = this.page.locator('.el-select-dropdown__item:visible');
		await options.first().waitFor({ state: 'visible' });
		const offered = await options.evaluateAll((items) =>
			items.map((item) => item.innerText.split('\n').map((line) => line.trim())),
		);
		await field.click();
		await options.first().waitFor({ state: 'hidden' });
		return offered.map(([name, type]) => ({ name, type }));
	}

	/** Picks a credential the credential field offers, by its name. */
	async pickCredential(name) {
		await (await this.credentialField()).click();
		const option = this.page.locator('.el-select-dropdown__item:visible').filter({
			has: this.page.getByText(name, { exact: true }),
		});
		await option.click();
		await option.waitFor({ state: 'hidden' });
		return this;
	}

	/** Where the panel's "Docs" link leads (null without one). */
	async docsLink() {
		const links = await this.root
			.locator('a[href]')
			.evaluateAll((anchors) =>
				anchors.map((anchor) => ({ text: anchor.textContent.trim(), href: anchor.href })),
			);
		return links.find((link) => link.text === 'Docs')?.href ?? null;
	}
}

module.exports = { NodeDetailsView };
