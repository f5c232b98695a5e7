'use strict';
/**
 * The triggers' parameters, given values of every JavaScript type through an expression
 * (written into it: a trigger has no input item), read on activation (Dynamic QR Trigger) or on
 * a poll (Dynamic QR Polling Trigger) through n8n-core against the sandbox. As for the action
 * node (test/actions/valuesFromExpressions.test.js): a refused value is an error naming the
 * field before any request to the service; an accepted one acts as the value typed in.
 */
const { startSandbox } = require('../../dev/sandbox');
const { VALUES, oracle } = require('../support/bad-values');
const {
	activate,
	createWorkflow,
	deactivate,
	poll,
	webhookUrlOf,
	POLLING_TYPE,
} = require('../engine/triggers');

const path = require('node:path');
const { DIST } = require('../engine/n8n-core');
const { DynamicQrTrigger } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQrTrigger.node.js'));
const { DynamicQrPollingTrigger } = require(
	path.join(DIST, 'nodes/DynamicQr/DynamicQrPollingTrigger.node.js'),
);
const { ID_PATTERN } = require(path.join(DIST, 'nodes/DynamicQr/api/edge/records.js'));

const ID = new RegExp(ID_PATTERN);
const trigger = new DynamicQrTrigger().getNodeType().description.properties;
const polling = new DynamicQrPollingTrigger().description.properties;
const propertyOf = (properties, name) => properties.find((property) => property.name === name);
const filters = propertyOf(trigger, 'filters');

let sandbox;
beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 1e7 });
});
afterAll(async () => {
	await sandbox?.close();
});

const requestCount = async () => (await sandbox.control('GET', '/requests')).data.length;

/** How an activation (or a poll) ended, and how many requests it made. */
async function outcomeOf(action, setup) {
	const before = await requestCount();
	const error = await action(setup).then(
		() => undefined,
		(failure) => failure,
	);
	const requests = (await requestCount()) - before;
	if (error) return { error: `${error.message} | ${error.description ?? ''}`, requests };
	const registered = (await sandbox.control('GET', '/webhooks')).data.find(
		(endpoint) => endpoint.url === webhookUrlOf(setup),
	);
	if (registered) await deactivate(setup);
	return { events: registered?.events ?? null, requests };
}

const credentials = () => ({ apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl });

/** The fields, each with how to set it and what to do with the node. */
const FIELDS = [
	{
		label: 'Trigger On',
		property: propertyOf(trigger, 'events'),
		setup: (value) =>
			createWorkflow({
				parameters: { endpointMode: 'automatic', events: value, filters: {} },
				credentials: credentials(),
				typeVersion: 2,
			}),
		action: activate,
	},
	...['qrCodeIds', 'cardIds'].map((name) => ({
		label: `Filters › ${name}`,
		property: filters.options.find((option) => option.name === name),
		list: true,
		nested: true,
		setup: (value) =>
			createWorkflow({
				parameters: {
					endpointMode: 'automatic',
					events: ['scan.created'],
					filters: value === undefined ? {} : { [name]: value },
				},
				credentials: credentials(),
				typeVersion: 2,
			}),
		action: activate,
	})),
	{
		label: 'Signing Secret (version 1, created in the dashboard)',
		property: propertyOf(trigger, 'signingSecret'),
		secret: true,
		setup: (value) =>
			createWorkflow({
				parameters: {
					endpointMode: 'dashboard',
					signingSecret: value ?? '',
					events: ['scan.created'],
				},
				credentials: credentials(),
				typeVersion: 1,
			}),
		action: activate,
	},
	{
		label: 'Polling: Card Name or ID',
		property: propertyOf(polling, 'cardId'),
		setup: (value) =>
			createWorkflow({
				type: POLLING_TYPE,
				parameters: { event: 'newLead', cardId: value ?? '' },
				credentials: credentials(),
			}),
		action: (setup) => poll(setup, { mode: 'manual' }),
	},
];

describe.each(FIELDS.map((field) => [field.label, field]))('%s', (_label, field) => {
	test('bad values fail before any request; good ones act as typed in', async () => {
		const problems = [];
		const twins = new Map();
		for (const { source, value } of VALUES) {
			const where = `${field.label} = ${source}`;
			// n8n writes a DateTime nested in a collection as its ISO text.
			const raw = field.nested && value?.isLuxonDateTime ? value.toString() : value;
			let verdict = oracle(field.property, raw, { list: field.list, idRegex: ID });
			if (verdict.notSet && field.property.required) verdict = { reject: true };
			const outcome = await outcomeOf(field.action, field.setup(`={{ ${source} }}`));
			if (verdict.reject) {
				if (!outcome.error) problems.push(`${where}: accepted; expected an error`);
				else if (!outcome.error.toLowerCase().includes(field.property.displayName.toLowerCase()))
					problems.push(`${where}: the error does not name the field: ${outcome.error}`);
				if (outcome.requests) problems.push(`${where}: ${outcome.requests} request(s) first`);
				continue;
			}
			if (
				field.secret &&
				typeof raw === 'string' &&
				raw.trim().length > 3 &&
				outcome.error?.includes(raw.trim())
			)
				problems.push(`${where}: the error shows the secret`);
			const literal = verdict.notSet ? undefined : verdict.value;
			const twinKey = JSON.stringify(literal ?? null);
			if (!twins.has(twinKey))
				twins.set(twinKey, await outcomeOf(field.action, field.setup(literal)));
			const expected = twins.get(twinKey);
			// Listing endpoints pages through what earlier cases left: compare what was registered.
			const comparable = ({ requests, ...rest }) => ({ ...rest, requested: requests > 0 });
			if (JSON.stringify(comparable(outcome)) !== JSON.stringify(comparable(expected)))
				problems.push(
					`${where}: differs from typing in ${twinKey}: ${JSON.stringify(outcome)} vs ${JSON.stringify(expected)}`,
				);
		}
		expect(problems).toEqual([]);
	});
});
