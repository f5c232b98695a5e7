'use strict';
/**
 * The signed-in session with one n8n main process: every request of the REST client goes
 * through request(), which carries the `n8n-auth` cookie and the editor's `browser-id` header.
 * The other areas of the client (credentials.js, workflows.js, executions.js) are built on it.
 */
const crypto = require('node:crypto');

const { giveUp } = require('../../wait-for');

/** Most REST answers wrap their payload in `data`. */
const unwrap = (answer) => answer?.data ?? answer;

/** Ends a poll at once on an error answer: asking n8n again would not change it. */
const failFast = (error) => {
	throw giveUp(error);
};

class RestSession {
	/**
	 * @param {object} options
	 * @param {string} options.url n8n's base URL (`http://127.0.0.1:<port>`)
	 * @param {number} options.major n8n's major version: 1.x and 2.x differ in some request bodies
	 */
	constructor({ url, major }) {
		this.url = url;
		this.major = major;
		this.browserId = crypto.randomUUID();
		this.cookie = '';
	}

	/**
	 * A request to n8n's HTTP API as the signed-in owner. `pathname` is from n8n's root (e.g.
	 * '/rest/workflows'). Resolves with the parsed JSON answer as n8n sends it; throws on a
	 * non-2xx answer with `status` and `body` set on the error. `{ raw: true }`: the fetch
	 * Response itself, whatever its status.
	 */
	async request(method, pathname, body, { raw = false } = {}) {
		const headers = { 'browser-id': this.browserId, accept: 'application/json' };
		if (this.cookie) headers.cookie = this.cookie;
		if (body !== undefined) headers['content-type'] = 'application/json';
		const send = () =>
			fetch(`${this.url}${pathname}`, {
				method,
				headers,
				body: body === undefined ? undefined : JSON.stringify(body),
				redirect: 'manual',
			});
		let response;
		try {
			response = await send();
		} catch (error) {
			// A kept-alive connection that n8n closed just as it was reused ("other side closed"):
			// the request never reached n8n, so it is sent once more on a new connection.
			if (error?.cause?.code !== 'UND_ERR_SOCKET') throw error;
			response = await send();
		}
		for (const setCookie of response.headers.getSetCookie?.() ?? []) {
			const match = /^n8n-auth=([^;]*)/.exec(setCookie);
			if (match) this.cookie = `n8n-auth=${match[1]}`;
		}
		if (raw) return response;
		const text = await response.text();
		if (!response.ok) {
			const error = new Error(
				`n8n ${method} ${pathname} answered ${response.status}: ${text.slice(0, 2000)}`,
			);
			error.status = response.status;
			error.body = text;
			throw error;
		}
		try {
			return text ? JSON.parse(text) : null;
		} catch {
			return text;
		}
	}

	/** Sets up the owner account when n8n has none yet, else signs in as that owner. */
	async signInAsOwner(owner) {
		const settings = unwrap(await this.request('GET', '/rest/settings'));
		if (settings?.userManagement?.showSetupOnFirstLoad !== false) {
			const { email, firstName, lastName, password } = owner;
			await this.request('POST', '/rest/owner/setup', { email, firstName, lastName, password });
		} else {
			await this.request(
				'POST',
				'/rest/login',
				this.major >= 2
					? { emailOrLdapLoginId: owner.email, password: owner.password }
					: { emailOrLdapLoginId: owner.email, email: owner.email, password: owner.password },
			);
		}
		if (!this.cookie) throw new Error('n8n set no n8n-auth cookie when signing in');
	}

	/** The names of the node types n8n has loaded. */
	async nodeTypeNames() {
		const types = await this.request('GET', '/types/nodes.json');
		return new Set((Array.isArray(types) ? types : []).map((type) => type.name));
	}
}

module.exports = { RestSession, unwrap, failFast };
