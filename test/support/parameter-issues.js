'use strict';
/**
 * Runs n8n's own pre-run check over a whole node description: the check n8n makes before any
 * node runs (the Workflow constructor fills in defaults with NodeHelpers.getNodeParameters, then
 * WorkflowExecute.checkReadyForExecution calls NodeHelpers.getNodeParametersIssues). A parameter
 * that this check counts as shown and required but left empty stops the whole run with
 * "Parameter X is required", even when the editor never showed it.
 *
 * configurations() walks every combination of the parameters other parameters' display options
 * depend on (resource, operation, type, payload input, …), filling each shown required field with
 * a literal value. issuesWithExpression() then turns one field into an expression (as a user
 * mapping a column, or an AI agent's $fromAI, would) and asks n8n again.
 */
const path = require('node:path');

/**
 * n8n checks resource-locator IDs with its regex guard, which runs each regex in a VM under a
 * 250 ms limit; on a loaded 2-core machine a pause trips that limit ("Regular expression
 * execution timed out") although the regex is trivial. The same regexes run natively here.
 * (The module is not in n8n-workflow's exports; its path reaches the instance that copy uses.)
 */
function runRegexesNatively(n8nWorkflowMain) {
	require(path.join(path.dirname(n8nWorkflowMain), 'safe-regex.js')).setSafeRegexEngine({
		exec: (pattern, input, flags) => new RegExp(pattern, flags).exec(input),
		test: (pattern, input, flags) => new RegExp(pattern, flags).test(input),
		replace: (pattern, input, flags, replacement) =>
			input.replace(new RegExp(pattern, flags), replacement),
		matchAll: (pattern, input, flags) =>
			Array.from(input.matchAll(new RegExp(pattern, flags.includes('g') ? flags : `${flags}g`))),
		split: (pattern, input, flags) => input.split(new RegExp(pattern, flags)),
	});
}

const SAMPLE_ID = 'a1B2c3D4e5F6';

/** The names other top-level parameters' display options refer to. */
function displayKeys(properties) {
	const keys = new Set();
	for (const property of properties) {
		for (const rules of [property.displayOptions?.show, property.displayOptions?.hide]) {
			for (const key of Object.keys(rules ?? {})) if (!key.startsWith('@')) keys.add(key);
		}
	}
	return keys;
}

/** A plausible literal value a user would enter for a required field. */
function literalFor(property) {
	switch (property.type) {
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: SAMPLE_ID };
		// Options loaded from the API (loadOptionsMethod) have no list here: a record ID stands in.
		case 'options':
			return property.options?.[0].value ?? SAMPLE_ID;
		case 'multiOptions':
			return [property.options?.[0].value ?? SAMPLE_ID];
		case 'dateTime':
			return '2030-05-01T18:00:00Z';
		case 'number':
			return property.default;
		case 'boolean':
			return property.default;
		case 'json':
			return '{}';
		case 'fixedCollection': {
			const [option] = property.options;
			const entry = Object.fromEntries(
				option.values.map((value) => [value.name, literalFor(value)]),
			);
			return { [option.name]: property.typeOptions?.multipleValues ? [entry] : entry };
		}
		case 'collection':
			return {};
		default:
			return /url/i.test(property.name) ? 'https://example.com' : 'sample';
	}
}

/** The same field mapped from the input item, as `{{ $json.<name> }}` (or another expression). */
function expressionFor(property, makeExpression) {
	const expression = makeExpression(property.name, property);
	switch (property.type) {
		case 'resourceLocator':
			return { __rl: true, mode: 'id', value: expression };
		case 'collection':
			return Object.fromEntries(
				property.options.map((option) => [option.name, makeExpression(option.name, option)]),
			);
		case 'fixedCollection': {
			const [option] = property.options;
			const entry = Object.fromEntries(
				option.values.map((value) => [value.name, makeExpression(value.name, value)]),
			);
			return { [option.name]: property.typeOptions?.multipleValues ? [entry] : entry };
		}
		default:
			return expression;
	}
}

const isEmpty = (value) =>
	value === undefined ||
	value === null ||
	value === '' ||
	(Array.isArray(value) && value.length === 0) ||
	(typeof value === 'object' && value.__rl === true && value.value === '');

function nodeTypesFor(type, description) {
	const nodeType = { description };
	return {
		getByName: () => nodeType,
		getByNameAndVersion: () => nodeType,
		getKnownTypes: () => ({}),
	};
}

const latestVersion = (description) =>
	Array.isArray(description.version) ? description.version.at(-1) : description.version;

/**
 * n8n's pre-run check as a given copy of n8n-workflow makes it: by default the package's own dev
 * dependency; the end-to-end tests pass the copy inside each n8n they run.
 */
function preRunChecks(n8nWorkflowMain = require.resolve('n8n-workflow')) {
	const { NodeHelpers, Workflow } = require(n8nWorkflowMain);
	runRegexesNatively(n8nWorkflowMain);

	/**
	 * What n8n does with a stored node before running it: the node's parameters with n8n's defaults
	 * filled in, and the issues that would stop the run (null when none).
	 */
	function n8nPreRunCheck(description, parameters) {
		const node = {
			id: '00000000-0000-4000-8000-000000000001',
			name: 'Node',
			type: `test.${description.name}`,
			typeVersion: latestVersion(description),
			position: [0, 0],
			parameters,
		};
		const workflow = new Workflow({
			nodes: [node],
			connections: {},
			active: false,
			nodeTypes: nodeTypesFor(node.type, description),
		});
		const checked = workflow.nodes[node.name];
		return {
			parameters: checked.parameters,
			issues: NodeHelpers.getNodeParametersIssues(description.properties, checked, description),
		};
	}

	/** The top-level properties n8n counts as shown for these parameters. */
	function shownProperties(description, parameters) {
		// The node's version decides displays keyed on '@version'.
		const node = { typeVersion: latestVersion(description) };
		return description.properties.filter((property) =>
			NodeHelpers.displayParameter(parameters, property, node, description),
		);
	}

	/**
	 * Every combination of the display-deciding parameters, each with every shown required field
	 * filled with a literal value: `[{ label, parameters }]`. `fixed` pins values (e.g. one resource).
	 */
	function configurations(description, fixed = {}) {
		const keys = displayKeys(description.properties);
		const found = [];
		const walk = (chosen) => {
			const { parameters } = n8nPreRunCheck(description, chosen);
			const open = shownProperties(description, parameters).find(
				(property) =>
					keys.has(property.name) &&
					!(property.name in chosen) &&
					['options', 'boolean'].includes(property.type),
			);
			if (open) {
				const values =
					open.name in fixed
						? [fixed[open.name]]
						: open.type === 'boolean'
							? [false, true]
							: open.options.map((option) => option.value);
				for (const value of values) walk({ ...chosen, [open.name]: value });
				return;
			}
			let filled = { ...parameters };
			for (let round = 0; round < 5; round += 1) {
				const missing = shownProperties(description, filled).filter(
					(property) => property.required && isEmpty(filled[property.name]),
				);
				if (!missing.length) break;
				for (const property of missing) filled[property.name] = literalFor(property);
				filled = n8nPreRunCheck(description, filled).parameters;
			}
			const label = Object.entries(chosen)
				.map(([key, value]) => `${key}=${value}`)
				.join(' ');
			found.push({ label, parameters: filled });
		};
		walk({});
		return found;
	}

	/** The fields a user can turn into an expression in this configuration. */
	function expressionFields(description, parameters) {
		return shownProperties(description, parameters).filter(
			(property) => !property.noDataExpression && !['notice', 'hidden'].includes(property.type),
		);
	}

	/**
	 * The ways to give this configuration's fields as expressions: each field another field's display
	 * depends on, alone (its expression changes what n8n counts as shown), and then all the other
	 * fields at once (their expressions change nothing else, so one check covers them all):
	 * `[{ fields: [names], issues }]`, issues null when the run may go ahead.
	 */
	function expressionChecks(description, parameters, makeExpression) {
		const keys = displayKeys(description.properties);
		const fields = expressionFields(description, parameters);
		const check = (chosen) => {
			const withExpressions = { ...parameters };
			for (const field of chosen)
				withExpressions[field.name] = expressionFor(field, makeExpression);
			return {
				fields: chosen.map((field) => field.name),
				issues: n8nPreRunCheck(description, withExpressions).issues,
			};
		};
		const deciding = fields.filter((field) => keys.has(field.name));
		const others = fields.filter((field) => !keys.has(field.name));
		return [...deciding.map((field) => check([field])), ...(others.length ? [check(others)] : [])];
	}

	/** `[configuration] <issues>` for every configuration whose literal values stop a run. */
	function literalProblems(description, all = configurations(description)) {
		return all
			.map(({ label, parameters }) => [label, n8nPreRunCheck(description, parameters).issues])
			.filter(([, issues]) => issues)
			.map(([label, issues]) => `[${label}] ${JSON.stringify(issues)}`);
	}

	/**
	 * `[configuration] <fields> as an expression: <issues>` for every expression that stops a run,
	 * and how many fields were given as expressions (a walk that checked none is broken).
	 */
	function expressionProblems(description, makeExpression, all = configurations(description)) {
		const problems = [];
		let checked = 0;
		for (const { label, parameters } of all) {
			for (const { fields, issues } of expressionChecks(description, parameters, makeExpression)) {
				checked += fields.length;
				if (issues) {
					problems.push(
						`[${label}] ${fields.join(', ')} as an expression: ${JSON.stringify(issues.parameters ?? issues)}`,
					);
				}
			}
		}
		return { problems, checked };
	}

	return {
		n8nPreRunCheck,
		configurations,
		expressionChecks,
		literalProblems,
		expressionProblems,
	};
}

/**
 * The tool variant n8n makes of a node that is usable as a tool (n8n 2.41.1:
 * dist/tool-generation/ai-tools.js): the same properties, plus a choice of tool description and
 * the description itself, required when set manually.
 */
function asTool(description) {
	const tool = JSON.parse(JSON.stringify(description));
	tool.name += 'Tool';
	tool.properties.unshift(
		{
			displayName: 'Tool Description',
			name: 'descriptionType',
			type: 'options',
			noDataExpression: true,
			options: [
				{ name: 'Set Automatically', value: 'auto' },
				{ name: 'Set Manually', value: 'manual' },
			],
			default: 'auto',
		},
		{
			displayName: 'Description',
			name: 'toolDescription',
			type: 'string',
			default: description.description,
			required: true,
			displayOptions: { show: { descriptionType: ['manual'] } },
		},
	);
	return tool;
}

/** The descriptions of this package's nodes as built in dist/, by the name n8n shows. */
function ourNodeDescriptions() {
	const dist = path.join(__dirname, '..', '..', 'dist', 'nodes');
	const { DynamicQr } = require(path.join(dist, 'DynamicQr/DynamicQr.node.js'));
	const { DynamicQrTrigger } = require(path.join(dist, 'DynamicQr/DynamicQrTrigger.node.js'));
	const { DynamicQrPollingTrigger } = require(
		path.join(dist, 'DynamicQr/DynamicQrPollingTrigger.node.js'),
	);
	const action = new DynamicQr();
	const trigger = new DynamicQrTrigger();
	return {
		'Dynamic QR': action.getNodeType().description,
		'Dynamic QR Tool': asTool(action.getNodeType().description),
		// Workflows made before version 2 keep their nodes at version 1.
		'Dynamic QR v1': action.getNodeType(1).description,
		'Dynamic QR Trigger': trigger.getNodeType().description,
		// Workflows made before version 2 keep their nodes at version 1.
		'Dynamic QR Trigger v1': trigger.getNodeType(1).description,
		'Dynamic QR Polling Trigger': new DynamicQrPollingTrigger().description,
	};
}

/** `{{ $json.<name> }}`: a field mapped from the input item. */
const fromInput = (name) => `={{ $json.${name.replace(/[^A-Za-z0-9_]/g, '_')} }}`;
/** `{{ $fromAI('<name>', …) }}`: a field an AI agent fills in tool mode. */
const fromAi = (name, property) =>
	`={{ $fromAI('${name.replace(/[^A-Za-z0-9_]/g, '_')}', ${JSON.stringify(property.displayName ?? name)}, 'string') }}`;

module.exports = {
	...preRunChecks(),
	preRunChecks,
	ourNodeDescriptions,
	fromInput,
	fromAi,
};
