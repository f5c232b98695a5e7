'use strict';
/** The workflow canvas: open a workflow, its nodes and what they show, run the workflow. */
const { BasePage, testId, cssString } = require('./base');

class CanvasPage extends BasePage {
	/** @param {{ url: string }} n8n */
	constructor(page, n8n) {
		super(page);
		this.n8n = n8n;
	}

	/** Opens a saved workflow and waits until its nodes are on the canvas. */
	async openWorkflow(workflowId) {
		await this.page.goto(`${this.n8n.url}/workflow/${workflowId}`, {
			waitUntil: 'domcontentloaded',
		});
		await this.byTestId('canvas-node').first().waitFor({ state: 'visible', timeout: 120000 });
		return this;
	}

	/** The canvas node with this name. */
	node(name) {
		return this.page.locator(`${testId('canvas-node')}[data-node-name=${cssString(name)}]`);
	}

	/** The names of the nodes on the canvas. */
	async nodeNames() {
		return this.byTestId('canvas-node').evaluateAll((nodes) =>
			nodes.map((node) => node.getAttribute('data-node-name')),
		);
	}

	/** What a canvas node shows (its name and subtitle), as displayed. */
	async nodeText(name) {
		return (await this.node(name).innerText()).replace(/\s+/g, ' ').trim();
	}

	/**
	 * The issues the canvas reports for a node (the warning triangle on it, `node-issues`):
	 * `[]` when there is no triangle, else the lines of its hover text (e.g. 'Parameter "URL"
	 * is required.'). This is n8n's verdict on the whole node, hidden parameters included.
	 * Call it with the node's panel closed.
	 */
	async nodeIssues(name) {
		const icon = this.node(name).locator(testId('node-issues'));
		if ((await icon.count()) === 0) return [];
		await icon.hover();
		const tooltip = this.visibleByTestId('tooltip-content').last();
		await tooltip.waitFor({ state: 'visible', timeout: 10000 }).catch(() => {});
		const lines = await tooltip
			.locator('li')
			.allInnerTexts()
			.catch(() => []);
		// Move away so the tooltip does not cover the next screenshot or click.
		await this.page.mouse.move(1, 1);
		return lines.length ? lines.map((line) => line.trim()) : ['(issue icon without text)'];
	}

	/** Runs the whole workflow from the canvas' "Execute workflow" button. */
	async executeWorkflow() {
		await this.byTestId('execute-workflow-button').click();
		return this;
	}

	/** Waits until the canvas marks a node as having run successfully (the green tick). */
	async waitForNodeSuccess(name, { timeoutMs = 120000 } = {}) {
		await this.node(name)
			.locator(testId('canvas-node-status-success'))
			.waitFor({ state: 'visible', timeout: timeoutMs });
		return this;
	}
}

module.exports = { CanvasPage };
