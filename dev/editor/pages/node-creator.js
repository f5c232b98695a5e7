'use strict';
/** The nodes panel (n8n's node creator): open it, search it, read and pick its entries. */
const { BasePage } = require('./base');

class NodeCreator extends BasePage {
	/** Opens the nodes panel from the canvas' "+" button. */
	async open() {
		await this.byTestId('node-creator-plus-button').first().click();
		await this.byTestId('node-creator-search-bar').waitFor({ state: 'visible' });
		return this;
	}

	/** Types into the panel's search box (it searches as you type). */
	async search(text) {
		await this.byTestId('node-creator-search-bar').fill(text);
		return this;
	}

	/**
	 * The entries the panel lists, in order, as displayed: `{ name, description }` (a node's
	 * actions, once it is opened, are entries too).
	 */
	async entries() {
		return this.visibleByTestId('item-iterator-item').evaluateAll((items) =>
			items
				.map((item) => {
					const text = (id) =>
						item.querySelector(`[data-test-id="${id}"]`)?.textContent.replace(/\s+/g, ' ').trim() ??
						null;
					return {
						name: text('node-creator-item-name'),
						description: text('node-creator-item-description'),
					};
				})
				.filter((entry) => entry.name),
		);
	}

	/** Clicks the entry with this name (a node opens its actions; an action adds it). */
	async pick(name) {
		await this.visibleByTestId('item-iterator-item')
			.filter({
				has: this.byTestId('node-creator-item-name').getByText(name, { exact: true }),
			})
			.first()
			.click();
		return this;
	}
}

module.exports = { NodeCreator };
