'use strict';
/**
 * n8n checks every node's parameters before a run starts (NodeHelpers.getNodeParametersIssues on
 * the parameters the Workflow constructor completed with defaults). These tests run that very
 * check over the whole description of each of our nodes, for every resource, operation, type and
 * mode: with literal values, and with each field given as an expression (mapped from the input, or
 * filled by an AI agent with $fromAI in tool mode). No field n8n counts as shown only because
 * another field is an expression may stop the run.
 */
const {
	configurations,
	expressionProblems,
	literalProblems,
	ourNodeDescriptions,
	fromInput,
	fromAi,
} = require('../support/parameter-issues');

const NODES = ourNodeDescriptions();

/** "[configuration] <fields> as expressions: <issues>" for every expression that blocks a run. */
function blockingExpressions(description, makeExpression, all = configurations(description)) {
	const { problems, checked } = expressionProblems(description, makeExpression, all);
	// Every configuration has fields to map, so a walk that checked nothing is a broken test.
	expect(checked).toBeGreaterThan(0);
	return problems;
}

describe.each(Object.entries(NODES))('%s: n8n’s pre-run parameter check', (_name, description) => {
	const all = configurations(description);

	test('walks every mode of the node', () => {
		// Far more than one configuration for each node: the walk really branches.
		expect(all.length).toBeGreaterThan(
			description.name.startsWith('dynamicQr') &&
				description.properties.some((property) => property.name === 'resource')
				? 100
				: 1,
		);
	});

	test('no issue with literal values in any resource, operation, type or mode', () => {
		expect(literalProblems(description, all)).toEqual([]);
	});

	test('no field given as an expression makes a hidden field block the run', () => {
		expect(blockingExpressions(description, fromInput, all)).toEqual([]);
	});

	test('no field filled by an AI agent ($fromAI) makes a hidden field block the run', () => {
		expect(blockingExpressions(description, fromAi, all)).toEqual([]);
	});
});

describe('the check itself', () => {
	/**
	 * The ordering this package had before: per-type fields showed by `type` first. n8n counts a
	 * field as shown as soon as the first display key it checks holds an expression, so with Type
	 * from an expression every type's required fields blocked the run.
	 */
	const typeFirst = {
		name: 'oldOrdering',
		version: 1,
		properties: [
			{
				displayName: 'Resource',
				name: 'resource',
				type: 'options',
				noDataExpression: true,
				default: 'qrCode',
				options: [{ name: 'QR Code', value: 'qrCode' }],
			},
			{
				displayName: 'Operation',
				name: 'operation',
				type: 'options',
				noDataExpression: true,
				default: 'create',
				options: [{ name: 'Create', value: 'create' }],
			},
			{
				displayName: 'Type',
				name: 'type',
				type: 'options',
				default: 'url',
				options: [
					{ name: 'URL', value: 'url' },
					{ name: 'Phone Call', value: 'phone' },
				],
				displayOptions: { show: { resource: ['qrCode'], operation: ['create'] } },
			},
			{
				displayName: 'Payload Input',
				name: 'payloadInput',
				type: 'options',
				noDataExpression: true,
				default: 'fields',
				options: [
					{ name: 'Fields', value: 'fields' },
					{ name: 'JSON', value: 'json' },
				],
				displayOptions: { show: { resource: ['qrCode'], operation: ['create'] } },
			},
			{
				displayName: 'URL',
				name: 'payload_url_url',
				type: 'string',
				required: true,
				default: '',
				displayOptions: {
					show: {
						type: ['url'],
						payloadInput: ['fields'],
						resource: ['qrCode'],
						operation: ['create'],
					},
				},
			},
			{
				displayName: 'Phone Number',
				name: 'payload_phone_phone',
				type: 'string',
				required: true,
				default: '',
				displayOptions: {
					show: {
						type: ['phone'],
						payloadInput: ['fields'],
						resource: ['qrCode'],
						operation: ['create'],
					},
				},
			},
		],
	};

	test('finds the flaw of the old ordering: Type from an expression with a JSON payload', () => {
		const problems = blockingExpressions(typeFirst, fromInput);
		expect(problems.join('\n')).toContain('type as an expression');
		expect(problems.join('\n')).toContain('Parameter \\"Phone Number\\" is required');
	});

	test('reports nothing for a description without the flaw', () => {
		const fixed = JSON.parse(JSON.stringify(typeFirst));
		for (const property of fixed.properties.slice(4)) {
			const { type, ...rest } = property.displayOptions.show;
			property.displayOptions = { show: rest, hide: { type: [{ _cnd: { not: type[0] } }] } };
		}
		expect(blockingExpressions(fixed, fromInput)).toEqual([]);
	});
});
