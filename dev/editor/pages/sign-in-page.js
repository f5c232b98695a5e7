'use strict';
/** The editor's sign-in form (`/signin`). */
const { BasePage, testId } = require('./base');

class SignInPage extends BasePage {
	/** @param {{ url: string, owner: { email: string, password: string } }} n8n */
	constructor(page, n8n, log = () => {}) {
		super(page);
		this.n8n = n8n;
		this.log = log;
	}

	/** Signs in through the editor's own sign-in form, as a person would. */
	async signIn({ email = this.n8n.owner.email, password = this.n8n.owner.password } = {}) {
		await this.page.goto(`${this.n8n.url}/signin`, { waitUntil: 'domcontentloaded' });
		const form = this.byTestId('signin-form');
		await form.waitFor({ state: 'visible', timeout: 120000 });
		await form.locator('input[name="emailOrLdapLoginId"]').fill(email);
		await form.locator('input[name="password"]').fill(password);
		await form.locator(testId('form-submit-button')).click();
		await this.page.waitForURL((url) => !url.pathname.startsWith('/signin'), { timeout: 120000 });
		this.log(`signed in to ${this.n8n.url} as ${email}`);
		return this;
	}
}

module.exports = { SignInPage };
