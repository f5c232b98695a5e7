'use strict';
/** The credentials area of n8n's REST API: create a credential, run its connection test. */
const { unwrap } = require('./session');

class CredentialsApi {
	/** @param {import('./session').RestSession} session */
	constructor(session) {
		this.session = session;
		/** Credentials created through this client, by type and name, for WorkflowsApi.create(). */
		this.byName = new Map();
	}

	/** Creates a credential: `{ name, type, data }` -> `{ id, name }`. */
	async create({ name, type, data }) {
		const record = unwrap(
			await this.session.request('POST', '/rest/credentials', { name, type, data }),
		);
		const created = { id: String(record.id), name: record.name };
		this.byName.set(`${type}\u0000${name}`, created);
		return created;
	}

	/** The id of the credential of this type and name created through this client, if any. */
	idOf(type, name) {
		return this.byName.get(`${type}\u0000${name}`)?.id;
	}

	/**
	 * Runs the credential's connection test as the editor's Test button does (n8n tests a saved
	 * credential, with the data given): `{ id, name, type, data }` -> `{ status: 'OK' | 'Error',
	 * message }`. Without an `id` the credential is created first, as the editor saves before
	 * testing.
	 */
	async test({ id, name, type, data }) {
		const credentialId = id ?? (await this.create({ name, type, data })).id;
		return unwrap(
			await this.session.request('POST', '/rest/credentials/test', {
				credentials: { id: credentialId, name, type, data },
			}),
		);
	}
}

module.exports = { CredentialsApi };
