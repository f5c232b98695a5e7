'use strict';
/** The parameters of the open node panel: which show, which are flagged, typing and picking. */
const { BasePage, testId } = require('./base');

class ParameterPanel extends BasePage {
	/** @param {import('./node-details-view').NodeDetailsView} ndv the panel they are in */
	constructor(page, ndv) {
		super(page);
		this.ndv = ndv;
	}

	/** The input of a parameter, by its internal name. */
	input(name) {
		return this.ndv.root.locator(testId(`parameter-input-${name}`));
	}

	/**
	 * The parameters the panel shows, in order: `{ name, label }` per visible label, `name`
	 * being the parameter's internal name (the label's `for`). n8n 2.x leaves hidden parameters
	 * out of the DOM; the visibility check also skips collapsed sections.
	 */
	async visible() {
		return this.ndv.parameters.evaluate((root) => {
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
	}

	/** The labels of the parameters the panel shows, in order, as displayed. */
	async labels() {
		return (await this.visible()).map((entry) => entry.label);
	}

	/**
	 * The parameters the panel flags with n8n's issue icon (`parameter-issues`, the red
	 * triangle beside the field), as `{ name, label }`.
	 */
	async issues() {
		const icons = this.ndv.root.locator(`${testId('parameter-issues')}:visible`);
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
	}

	/** Types into a text parameter, by its internal name, and commits the value. */
	async fill(name, value) {
		const input = this.input(name).locator('input, textarea').first();
		await input.click();
		await input.fill(value);
		// n8n commits a typed value on blur. Blur the field itself: Tab would move the focus
		// to the next control and open it when that is a dropdown.
		await input.evaluate((element) => element.blur());
		return this;
	}

	/**
	 * Picks an option of an options parameter (by internal name) by its displayed name, also
	 * one the node loads from the API (the list opens once they have loaded).
	 */
	async selectOption(name, optionName) {
		// The select's own input: a click on the parameter's wrapper does not open the list of
		// options a node loads.
		await this.input(name).locator('input').click();
		// An option's accessible name includes its description: match its headline exactly.
		const option = this.visibleByTestId('parameter-input-item').filter({
			has: this.page.locator('.option-headline').getByText(optionName, { exact: true }),
		});
		await option.click();
		await option.waitFor({ state: 'hidden' });
		return this;
	}
}

module.exports = { ParameterPanel };
