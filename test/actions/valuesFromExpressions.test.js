'use strict';
/**
 * Every field of every operation of the action node, given values of every JavaScript type
 * through an expression (`{{ $json.v }}`, or the value written into the expression where JSON
 * cannot carry it), run through n8n-core against the sandbox with every request recorded.
 *
 * For each field and value the written convention (test/support/bad-values.js) says whether the
 * field's declared type accepts the value and as what. Then:
 * - refused (or empty where the field is required): the item fails with an error naming the
 *   field and the item, and NO request was made (no side effect before the error);
 * - accepted: the run sends exactly the requests, and ends exactly as, a run with the accepted
 *   value typed in literally (its "twin"): "false" behaves as false, " 7 " as 7, an empty value
 *   as the field's default;
 * - always: no request carries a coerced value ("[object Object]", "NaN", an object as a query
 *   parameter, a header value a header cannot carry).
 *
 * Request Options (concurrency, Max Rate Limit Wait), read by actions/router.ts, are walked once,
 * under Account › Get: they are the same for every operation.
 *
 * Version 1 is walked whole; of version 2, the fields it has of its own (Payload (JSON), required,
 * and the options of Payload Fields): the rest is the same in both (test/actions/versions.test.js).
 */
const path = require('node:path');
const crypto = require('node:crypto');
const { NodeHelpers } = require('n8n-workflow');

const { DIST } = require('../engine/n8n-core');
const { configurations } = require('../support/parameter-issues');
const { VALUES, typeOf, oracle, locatorOracle, coercionIn } = require('../support/bad-values');
const { startSandbox } = require('../../dev/sandbox');
const { runNode } = require('../engine');

const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));
const { QR_TYPES } = require(path.join(DIST, 'nodes/DynamicQr/qrTypes.js'));
const { ID_PATTERN } = require(path.join(DIST, 'nodes/DynamicQr/api/edge/records.js'));

const VERSIONS = new Map([1, 2].map((version) => [version, new DynamicQr().getNodeType(version)]));
/** Version 2's own fields. */
const OWN_IN_VERSION_2 = new Set(['payloadJson', 'mixedPayload']);
const ID = new RegExp(ID_PATTERN);
/** Text fields that take a comma-separated text or a list. */
const LIST_FIELDS = new Set(['tags']);
const MISSING_ID = 'a1B2c3D4e5F6';
const MANY_NAME = 'Update Many target';

let sandbox;

const shown = (parameters, { description }) =>
	description.properties.filter(
		(property) =>
			!property.noDataExpression &&
			!['notice', 'hidden'].includes(property.type) &&
			(property.name !== 'requestOptions' || parameters.resource === 'account') &&
			NodeHelpers.displayParameter(
				parameters,
				property,
				{ typeVersion: description.version },
				description,
			),
	);

/** Whether a collection's option is shown for the operation (Paused: Create or Update only). */
const optionShown = (parameters, option) =>
	Object.entries(option.displayOptions?.show ?? {}).every(
		([key, values]) => !key.startsWith('/') || values.includes(parameters[key.slice(1)]),
	);

/** Every place a value can be given in this configuration: `{ path, property, parent, mode }`. */
function targetsOf(parameters, nodeType) {
	const targets = [];
	for (const property of shown(parameters, nodeType)) {
		if (property.type === 'collection') {
			for (const option of property.options.filter((entry) => optionShown(parameters, entry)))
				targets.push({ path: [property.name, option.name], property: option, parent: property });
		} else if (property.type === 'fixedCollection') {
			for (const group of property.options)
				for (const value of group.values)
					targets.push({
						path: [property.name, group.name, 0, value.name],
						property: value,
						parent: property,
					});
		} else if (property.type === 'resourceLocator') {
			for (const mode of property.modes)
				targets.push({ path: [property.name], property, mode: mode.name });
		} else {
			targets.push({ path: [property.name], property });
		}
	}
	return targets;
}

/** Whether a configuration's Type uses the payload key a mixed-type field fills. */
function usesField(parameters, target) {
	const key =
		target.path[0] === 'mixedPayload'
			? target.path[1]
			: /^mixedPayload_(.+)$/.exec(target.path[0])?.[1];
	if (!key) return true;
	return QR_TYPES.some(
		(type) => type.value === parameters.type && type.fields.some((field) => field.name === key),
	);
}

/**
 * One case per field of each operation, in a configuration where the field takes effect; of a
 * version after the first, only the fields `own` names.
 */
function walk(typeVersion, own) {
	const nodeType = VERSIONS.get(typeVersion);
	const cases = new Map();
	for (const { label, parameters } of configurations(nodeType.description)) {
		for (const target of targetsOf(parameters, nodeType)) {
			if (own && !own.has(target.path[0])) continue;
			const operation = `${parameters.resource}.${parameters.operation}${typeVersion > 1 ? `@${typeVersion}` : ''}`;
			const key = `${operation} ${target.path.join('.')}${target.mode ? ` (${target.mode})` : ''}`;
			const known = cases.get(key);
			if (!known || (!usesField(known.parameters, target) && usesField(parameters, target)))
				cases.set(key, { key, label, parameters, target, typeVersion });
		}
	}
	return [...cases.values()];
}

const clone = (value) => JSON.parse(JSON.stringify(value));

function setAt(parameters, target, value) {
	const copy = clone(parameters);
	const pathTo = [...target.path];
	const last = pathTo.pop();
	let holder = copy;
	for (const [index, step] of pathTo.entries()) {
		if (holder[step] === undefined || holder[step] === null)
			holder[step] = typeof (target.path[index + 1] ?? last) === 'number' ? [] : {};
		holder = holder[step];
	}
	if (value === REMOVE) delete holder[last];
	else if (target.mode) holder[last] = { __rl: true, mode: target.mode, value };
	else holder[last] = value;
	return copy;
}
const REMOVE = Symbol('remove');

let logoBase64;
let realCodeId;

/**
 * The configuration's records: real ones where a record must exist, a missing one for deletes.
 * Update replaces the payload (unless Replace Payload is what is checked), so that what a run
 * sends does not depend on what the runs before it left in the shared code; Create or Update
 * matches by an empty ID, so that every run creates.
 */
function withRecords(parameters, target) {
	const copy = clone(parameters);
	if (parameters.operation === 'update' && target.path[0] !== 'replacePayload')
		copy.replacePayload = true;
	// Create or Update matched by name finds what the run before it made; with no ID to match,
	// every run creates, as its twin does.
	if (parameters.operation === 'upsert' && target.path[0] !== 'matchQrCodeId') {
		copy.matchBy = 'id';
		copy.matchQrCodeId = '';
	}
	// Update Many acts on a code of its own as a dry run, or (Dry Run checked) with a change the code
	// holds already: every run reads the same list, writes nothing and outputs the same.
	if (parameters.operation === 'updateMany') {
		const own = target.path[1] === 'search' ? { name: MANY_NAME } : { search: MANY_NAME };
		copy.filters = { ...copy.filters, ...own };
		if (target.path[0] !== 'dryRun') copy.dryRun = true;
		else Object.assign(copy, { payloadInput: 'none', updateFields: { name: MANY_NAME } });
	}
	for (const [name, id] of [
		['qrCodeId', parameters.operation === 'delete' ? MISSING_ID : realCodeId],
		['cardId', sandbox.cardId],
		['webhookEndpointId', MISSING_ID],
	]) {
		if (copy[name]?.__rl) copy[name] = { ...copy[name], value: id };
	}
	if (parameters.resource === 'logo') copy.binaryPropertyName = 'data';
	return copy;
}

/** The input item: `v` for `{{ $json.v }}`, and a logo file for Logo › Upload. */
function inputItem(resource, value) {
	const item = { json: value?.json ? { v: value.value } : {} };
	if (resource === 'logo')
		item.binary = { data: { base64: logoBase64, mimeType: 'image/png', fileName: 'logo.png' } };
	return item;
}

const knownIds = () => [realCodeId, MISSING_ID, sandbox.cardId];

/** A request as the node built it, comparable across runs and items. */
function requestOf(request) {
	const key = request.headers?.['Idempotency-Key'];
	return {
		method: request.method,
		url: String(request.url)
			.replace(/^https?:\/\/[^/]+/, '')
			// A code the run itself made (Create or Update pausing what it created) differs by run.
			.split('/')
			.map((step) => (ID.test(step) && !knownIds().includes(step) ? '<made by the run>' : step))
			.join('/'),
		qs: request.qs,
		body: Buffer.isBuffer(request.body) ? `<${request.body.length} bytes>` : request.body,
		// The key derived from the execution and the item differs by run and item by design.
		idempotencyKey: /^n8n-[0-9a-f]{40}(-tags)?$/.test(String(key)) ? '<derived>' : key,
	};
}

/** How one item ended: its error (with "item N" for its index) or the shape of its output. */
function outcomeOf(result, itemIndex) {
	// An error of the whole run (a node-wide option; n8n then passes the input items on).
	if (result.error) {
		const text = `${result.error.message} | ${result.error.description ?? ''}`;
		return { error: text.replace(/\b([Ii])tem 0\b/g, '$1tem N') };
	}
	const outputs = result.items.filter((item) => (item.pairedItem?.item ?? 0) === itemIndex);
	const error =
		outputs.length === 1 && outputs[0].json.error !== undefined && !outputs[0].binary
			? outputs[0].json
			: undefined;
	if (error) {
		const text = `${error.error} | ${error.description ?? ''}`;
		return { error: text.replace(new RegExp(`\\b([Ii])tem ${itemIndex}\\b`, 'g'), '$1tem N') };
	}
	return {
		output: outputs.map((item) => ({
			keys: Object.keys(item.json).sort(),
			binary: Object.keys(item.binary ?? {}).sort(),
			secret: /whsec_/.test(JSON.stringify(item.json)),
		})),
	};
}

/** Runs the node over `items`, each item's error becoming its output, recording every request. */
async function runCase(parameters, items, executionId, typeVersion = 1) {
	const requests = [];
	const result = await runNode({
		parameters,
		typeVersion,
		credentials: { apiKey: sandbox.keys.readWrite, baseUrl: sandbox.baseUrl },
		items,
		executionId,
		settings: { onError: 'continueRegularOutput' },
		onRequest: (request) => requests.push(request),
	});
	return { result, requests };
}

/** The value a user would type in for the accepted value (a field left out when not set). */
function literalFor(target, verdict) {
	// An empty JSON field is not set: its default is an example, never sent.
	if (verdict.notSet && target.property.type === 'json') return target.parent ? REMOVE : '';
	if (verdict.notSet) return target.parent ? REMOVE : clone({ v: target.property.default }).v;
	if (target.property.type === 'json') return JSON.stringify(verdict.value);
	return verdict.value;
}

/** n8n writes a Luxon DateTime nested in a collection or locator as its ISO text. */
const asN8nPasses = (target, value) =>
	(target.parent || target.mode) && typeOf(value) === 'DateTime' ? value.toString() : value;

function verdictFor(target, value) {
	const raw = asN8nPasses(target, value);
	if (target.mode) return locatorOracle(target.property, target.mode, raw, ID);
	if (target.property.name === 'type' && !target.parent) {
		// Type takes a type's value or label in any case (README "QR code types").
		if (typeof raw !== 'string') return { reject: true };
		const wanted = raw.trim().toLowerCase();
		const known = QR_TYPES.find(
			(type) => type.value === wanted || type.label.toLowerCase() === wanted,
		);
		return known ? { value: raw } : { reject: true };
	}
	const verdict = oracle(target.property, raw, {
		list: LIST_FIELDS.has(target.property.name),
		idRegex: ID,
	});
	if (verdict.notSet && target.property.required && !target.parent) return { reject: true };
	return verdict;
}

/** Whether an error text names the field (its display name) and the item ("item N"). */
const namesFieldAndItem = (text, field) =>
	text.toLowerCase().includes(field.toLowerCase()) && text.toLowerCase().includes('item n');

const CASES = [...walk(1), ...walk(2, OWN_IN_VERSION_2)];

beforeAll(async () => {
	sandbox = await startSandbox({ port: 0, rateLimitPerMinute: 1e7 });
	const { PNG } = require('pngjs');
	const png = new PNG({ width: 8, height: 8 });
	png.data.fill(255);
	logoBase64 = PNG.sync.write(png).toString('base64');
	const create = (name) =>
		runCase(
			{
				resource: 'qrCode',
				operation: 'create',
				name,
				type: 'url',
				payload_url_url: 'https://example.com',
			},
			[{ json: {} }],
		);
	realCodeId = (await create('Target')).result.items[0].json.id;
	expect(realCodeId).toMatch(ID);
	await create(MANY_NAME);
});

test('the value set covers every JavaScript type a field can receive', () => {
	const types = new Set(VALUES.map(({ value }) => typeOf(value)));
	for (const type of [
		'undefined',
		'null',
		'boolean',
		'number',
		'string',
		'object',
		'array',
		'Date',
		'DateTime',
	])
		expect(types).toContain(type);
	expect(VALUES.length).toBeGreaterThanOrEqual(30);
});

test.each([
	[1, undefined],
	[2, OWN_IN_VERSION_2],
])('the walk reaches every field and option of every operation (version %s)', (version, own) => {
	const cases = CASES.filter(({ typeVersion }) => typeVersion === version);
	const reached = new Set(cases.map(({ target }) => target.property.name));
	const declared = new Set();
	for (const property of VERSIONS.get(version).description.properties) {
		if (property.noDataExpression || property.type === 'notice') continue;
		if (own && !own.has(property.name)) continue;
		if (property.type === 'collection') property.options.forEach((o) => declared.add(o.name));
		else if (property.type === 'fixedCollection')
			property.options.forEach((g) => g.values.forEach((v) => declared.add(v.name)));
		else declared.add(property.name);
	}
	expect([...declared].filter((name) => !reached.has(name))).toEqual([]);
	expect(cases.length).toBeGreaterThan(version === 1 ? 150 : 20);
});

const byOperation = new Map();
for (const entry of CASES) {
	const operation = entry.key.split(' ')[0];
	if (!byOperation.has(operation)) byOperation.set(operation, []);
	byOperation.get(operation).push(entry);
}

/**
 * Checks one field with every value: one run with an item per value (each item's error becomes
 * its output), against runs with each accepted value typed in. The requests of the whole run
 * must be, in order, those of the typed-in runs of the accepted items and nothing for the refused
 * ones; when they are not, each value is run alone to say which.
 */
async function checkField({ key, parameters: base, target, typeVersion }) {
	const parameters = withRecords(base, target);
	const cases = VALUES.map((value) => {
		const verdict = verdictFor(target, value.value);
		return { value, verdict, literal: verdict.reject ? undefined : literalFor(target, verdict) };
	});
	const executionId = (text) =>
		`values-${crypto.createHash('sha1').update(`${key}\n${text}`).digest('hex').slice(0, 16)}`;
	const twins = new Map();
	/** A run with the accepted value typed in, in an execution of its own (its own default key). */
	const twinOf = async (literal) => {
		const twinKey = JSON.stringify(literal === REMOVE ? '<removed>' : literal);
		if (!twins.has(twinKey)) {
			const run = await runCase(
				setAt(parameters, target, literal),
				[inputItem(base.resource)],
				executionId(twinKey),
				typeVersion,
			);
			twins.set(twinKey, {
				twinKey,
				requests: run.requests.map(requestOf),
				outcome: outcomeOf(run.result, 0),
				issues: run.result.issues,
			});
		}
		return twins.get(twinKey);
	};

	/** Problems of one value alone (item 0), for the report. */
	const alone = async ({ value, verdict, literal }) => {
		const where = `${key} = ${value.source}`;
		const run = await runCase(
			setAt(parameters, target, value.json ? '={{ $json.v }}' : `={{ ${value.source} }}`),
			[inputItem(base.resource, value)],
			executionId(`alone ${value.source}`),
			typeVersion,
		);
		const found = [];
		for (const request of run.requests)
			for (const problem of coercionIn(request)) found.push(`${where}: sent ${problem}`);
		const outcome = outcomeOf(run.result, 0);
		if (verdict.reject) {
			if (!outcome.error) found.push(`${where}: accepted; expected an error naming the field`);
			else if (!namesFieldAndItem(outcome.error, target.property.displayName))
				found.push(`${where}: the error does not name the field and item: ${outcome.error}`);
			if (run.requests.length)
				found.push(`${where}: ${run.requests.length} request(s) before the error`);
			return found;
		}
		const twin = await twinOf(literal);
		const actual = JSON.stringify({ requests: run.requests.map(requestOf), outcome });
		const wanted = JSON.stringify({ requests: twin.requests, outcome: twin.outcome });
		if (actual !== wanted)
			found.push(
				`${where}: differs from typing in ${twin.twinKey}: ${actual.slice(0, 300)} vs ${wanted.slice(0, 300)}`,
			);
		return found;
	};

	/**
	 * One run for many values, an item each: JSON values read with `{{ $json.v }}`, the others
	 * written into the expression and picked by the item. Whether it went as the convention says.
	 */
	const batch = async (entries, expression, itemOf) => {
		const run = await runCase(
			setAt(parameters, target, expression),
			entries.map(itemOf),
			executionId(expression),
			typeVersion,
		);
		if (run.result.issues) return `n8n's pre-run check refused ${expression}`;
		const expected = [];
		for (const [index, entry] of entries.entries()) {
			const outcome = outcomeOf(run.result, index);
			if (entry.verdict.reject) {
				if (!outcome.error || !namesFieldAndItem(outcome.error, target.property.displayName))
					return `${entry.value.source}: ${JSON.stringify(outcome)}`;
				continue;
			}
			const twin = await twinOf(entry.literal);
			if (twin.issues) return `n8n's pre-run check refused ${twin.twinKey}`;
			expected.push(...twin.requests);
			if (JSON.stringify(outcome) !== JSON.stringify(twin.outcome))
				return `${entry.value.source}: ${JSON.stringify(outcome)} vs ${JSON.stringify(twin.outcome)}`;
		}
		const coerced = run.requests.flatMap(coercionIn);
		if (coerced.length) return coerced.join('; ');
		// The items of one run are under way together (requests in flight adapt), so the requests
		// are compared as a set, not in the order they were sent.
		const inAnyOrder = (requests) => JSON.stringify(requests.map((r) => JSON.stringify(r)).sort());
		const sent = inAnyOrder(run.requests.map(requestOf));
		return sent === inAnyOrder(expected)
			? undefined
			: `the requests differ: ${sent} vs ${inAnyOrder(expected)}`;
	};

	// A node-wide option is read from the first item: each value needs a run of its own.
	if (target.path[0] === 'requestOptions') {
		const problems = [];
		for (const entry of cases) problems.push(...(await alone(entry)));
		return problems;
	}
	const fromJson = cases.filter(({ value }) => value.json);
	const written = cases.filter(({ value }) => !value.json);
	const difference =
		(await batch(fromJson, '={{ $json.v }}', ({ value }) => inputItem(base.resource, value))) ??
		(await batch(
			written,
			`={{ [${written.map(({ value }) => value.source).join(', ')}][$json.i] }}`,
			(entry, index) => ({ ...inputItem(base.resource), json: { i: index } }),
		));
	if (difference === undefined) return [];
	// Each value alone, to say which ones go wrong.
	const problems = [];
	for (const entry of cases) problems.push(...(await alone(entry)));
	if (!problems.length)
		problems.push(
			`${key}: a run with many values differs from each alone: ${difference}`.slice(0, 1500),
		);
	return problems;
}

const failures = [];

describe.each([...byOperation.keys()])('%s: every field, every type of value', (operation) => {
	test('bad values fail the item before any request; good ones act as typed in', async () => {
		const problems = [];
		for (const entry of byOperation.get(operation)) problems.push(...(await checkField(entry)));
		failures.push(...problems);
		expect(problems).toEqual([]);
		// Update Many's items run one after another, each reading the list; the payload operations
		// walk some 60 fields: on a busy machine a walk takes over the default minute.
	}, 180000);
});

afterAll(async () => {
	if (process.env.VALUES_REPORT) {
		const header = `${CASES.length} fields x ${VALUES.length} values = ${CASES.length * VALUES.length} cases`;
		require('node:fs').writeFileSync(
			process.env.VALUES_REPORT,
			[header, ...failures].join('\n') + '\n',
		);
	}
	await sandbox?.close();
});
