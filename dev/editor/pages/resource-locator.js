'use strict';
/**
 * The resource locator parameters of the open node panel (`resource-locator-<name>`) and the
 * list one opens in "From List" mode, where n8n calls the node's list search.
 */
const { BasePage, testId } = require('./base');

class ResourceLocator extends BasePage {
	/** @param {import('./node-details-view').NodeDetailsView} ndv the panel they are in */
	constructor(page, ndv) {
		super(page);
		this.ndv = ndv;
	}

	/** A resource locator parameter of the panel, by its internal name. */
	field(name) {
		return this.ndv.root.locator(testId(`resource-locator-${name}`));
	}

	/** Opens a resource locator's list ("From List" mode): n8n then calls the list search. */
	async openList(name) {
		await this.field(name).locator(testId('rlc-input')).click();
		await this.visibleByTestId('rlc-search').waitFor({ state: 'visible' });
		return this;
	}

	/** The entries the open list shows, as displayed. */
	async listItems() {
		const texts = await this.visibleByTestId('rlc-item').allInnerTexts();
		return texts.map((text) => text.trim());
	}

	/** Types into the open list's search box (n8n searches as you type). */
	async search(text) {
		const box = this.visibleByTestId('rlc-search');
		// The test id sits on the input itself in n8n 2.x, on a wrapper in older editors.
		const isInput = await box.evaluate((element) => element.tagName === 'INPUT');
		await (isInput ? box : box.locator('input')).fill(text);
		return this;
	}

	/** Picks an entry of the open list by its displayed name. */
	async pick(displayName) {
		await this.visibleByTestId('rlc-item').filter({ hasText: displayName }).first().click();
		return this;
	}

	/** The value a resource locator displays (in list mode: the picked entry's name). */
	async value(name) {
		return this.field(name).locator(testId('rlc-input')).inputValue();
	}
}

module.exports = { ResourceLocator };
