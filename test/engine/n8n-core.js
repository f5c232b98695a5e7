'use strict';
/**
 * What every in-process n8n harness here shares: n8n-core's own dependency container and
 * logger, and a credentials helper that authenticates requests as n8n's does, by resolving the
 * credential type's `authenticate` block with n8n-workflow's expression engine.
 */
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

// n8n-core keeps its instance settings (an encryption key) in the user folder: a scratch one
// per jest worker, never the user's ~/.n8n.
if (!process.env.N8N_USER_FOLDER) {
	const folder = path.join(
		os.tmpdir(),
		`dynamic-qr-n8n-worker-${process.env.JEST_WORKER_ID || process.pid}`,
	);
	fs.mkdirSync(folder, { recursive: true });
	process.env.N8N_USER_FOLDER = folder;
}

// n8n-core carries its own copies of @n8n/di and @n8n/backend-common: use those, so that what
// is registered here is what n8n-core's contexts get.
const fromCore = (name) =>
	require(require.resolve(name, { paths: [path.dirname(require.resolve('n8n-core'))] }));
const { Container } = fromCore('@n8n/di');
const { Logger } = fromCore('@n8n/backend-common');
const { Workflow } = require('n8n-workflow');

const DIST = path.resolve(__dirname, '../../dist');
const { DynamicQrApi } = require(path.join(DIST, 'credentials/DynamicQrApi.credentials.js'));
const credentialType = new DynamicQrApi();
const { DynamicQrSigningSecretApi } = require(
	path.join(DIST, 'credentials/DynamicQrSigningSecretApi.credentials.js'),
);
/** The package's credential types, by name. */
const ourCredentialTypes = Object.fromEntries(
	[credentialType, new DynamicQrSigningSecretApi()].map((type) => [type.name, type]),
);

/** Every log line the nodes write through n8n's logger, for tests to assert on (and on what is absent). */
const logLines = [];
const testLogger = {
	scoped: () => testLogger,
};
for (const level of ['error', 'warn', 'info', 'debug']) {
	testLogger[level] = (message) => logLines.push({ level, message: String(message) });
}
Container.set(Logger, testLogger);

/**
 * Evaluates an n8n expression (`={{ … }}`) with n8n-workflow's engine, as the editor and the
 * engine do, for a node holding `parameters` (`$parameter`) and with `additionalKeys` in scope.
 */
function evaluateExpression(value, { parameters = {}, additionalKeys = {} } = {}) {
	const node = {
		id: 'n',
		name: 'Node',
		type: 'test.node',
		typeVersion: 1,
		position: [0, 0],
		parameters,
	};
	const workflow = new Workflow({
		nodes: [node],
		connections: {},
		active: false,
		nodeTypes: {
			getByName: () => undefined,
			getByNameAndVersion: () => undefined,
			getKnownTypes: () => ({}),
		},
	});
	return workflow.expression.getSimpleParameterValue(
		workflow.getNode('Node'),
		value,
		'internal',
		additionalKeys,
	);
}

/** Resolves a credential expression such as `=Bearer {{$credentials.apiKey}}`, as n8n does. */
const resolveCredentialExpression = (value, credentials) =>
	evaluateExpression(value, { additionalKeys: { $credentials: credentials } });

/**
 * The helper n8n's request helpers call: hands out `credentialData` (a fresh copy each time, as
 * n8n decrypts afresh) and applies the credential type's generic `authenticate` block.
 */
function createCredentialsHelper(credentialData) {
	return {
		getParentTypes: () => [],
		isCredentialUsableByNode: (type) => type in ourCredentialTypes,
		getDecrypted: async () => ({ ...credentialData }),
		preAuthentication: async () => undefined,
		runPreAuthentication: async () => undefined,
		getCredentialsProperties: (type) => ourCredentialTypes[type].properties,
		updateCredentials: async () => {},
		updateCredentialsOauthTokenData: async () => {},
		getOAuth2Options: () => undefined,
		getCredentials: async () => {
			throw new Error('not used by these tests');
		},
		async authenticate(credentials, typeName, requestOptions) {
			if (typeName !== credentialType.name)
				throw new Error(`unexpected credential type ${typeName}`);
			const authenticated = { ...requestOptions };
			for (const [target, values] of Object.entries(credentialType.authenticate.properties)) {
				authenticated[target] = { ...(requestOptions[target] ?? {}) };
				for (const [name, template] of Object.entries(values)) {
					authenticated[target][name] = resolveCredentialExpression(template, credentials);
				}
			}
			return authenticated;
		},
	};
}

module.exports = {
	Container,
	fromCore,
	logLines,
	createCredentialsHelper,
	resolveCredentialExpression,
	evaluateExpression,
	DIST,
};
