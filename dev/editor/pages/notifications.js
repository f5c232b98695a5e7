'use strict';
/** n8n's toasts (Element Plus notifications), closed before screenshots and clicks. */
const { BasePage } = require('./base');

class Notifications extends BasePage {
	/** The text of every toast shown, top first. */
	async texts() {
		return this.page.locator('.el-notification:visible').allInnerTexts();
	}

	/** Closes every toast and moves the pointer out of the way. */
	async dismissAll() {
		await this.page.mouse.move(1, 1);
		const closers = this.page.locator('.el-notification:visible .el-notification__closeBtn');
		for (let left = await closers.count(); left > 0; left -= 1) {
			await closers
				.first()
				.click({ timeout: 5000 })
				.catch(() => {});
		}
		await this.page
			.locator('.el-notification:visible')
			.first()
			.waitFor({ state: 'hidden', timeout: 10000 })
			.catch(() => {});
		return this;
	}
}

module.exports = { Notifications };
