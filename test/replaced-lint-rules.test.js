'use strict';
/**
 * Six rules n8n's community-node lint had in its source (n8n-io/n8n,
 * packages/@n8n/eslint-plugin-community-nodes/src/rules/ and docs/rules/) and dropped in n8n PR
 * #33427 (July 2026): rules of eslint-plugin-n8n-nodes-base check the same, and `n8n-node lint`
 * (npm run lint) and n8n's community-package scanner run those (test/scanner-lint.test.js runs them
 * on this package, inline disables ignored). The plugin this project can install (0.32), made
 * after that, has none of the six. Each is checked here as its last source read it, on the
 * sources' syntax trees (test/support/ts-source.js): first on the rule's own examples, then on
 * this package; beside it, that the rule which took its place is an error in npm run lint.
 *
 * - cred-class-name-suffix: a credential class (implements ICredentialType, in a .credentials.ts
 *   file) is named …Api.
 * - cred-class-name-field-conventions: its `name` field, when a string literal, starts with a
 *   lower-case letter and ends with Api.
 * - node-filename-against-convention: a node class whose `description` is an object literal with
 *   a string `name` sits in <Name>.node.ts (a V2, V3… suffix allowed).
 * - node-operation-error-itemindex: inside an item loop of a node class's execute() in a .node.ts
 *   file, `new NodeOperationError` / `new NodeApiError` carry `{ itemIndex }`.
 * - require-continue-on-fail: a node class's execute() calls this.continueOnFail() somewhere in
 *   its body. The Dynamic QR node breaks it (asserted): its execute() hands the items to
 *   actions/router.ts, where continueOnFail() is read for each failed item.
 * - options-sorted-alphabetically (a warning): the `type: 'options'` parameters of a properties
 *   array written in a node class's description list their options by name, alphabetically.
 */
const fs = require('node:fs');
const path = require('node:path');
const n8nNodesBase = require('eslint-plugin-n8n-nodes-base');

const {
	ts,
	parse,
	parseFile,
	visit,
	contains,
	bare,
	classes,
	isNodeTypeClass,
	isCredentialTypeClass,
	classProperty,
	objectProperty,
	stringValue,
	isThisCall,
	isMethodNamed,
	lineOf,
} = require('./support/ts-source');

const ROOT = path.join(__dirname, '..');
const filesBelow = (folder, pattern) =>
	fs
		.readdirSync(folder, { recursive: true })
		.filter((name) => pattern.test(name))
		.map((name) => path.join(folder, name))
		.sort();
const CREDENTIAL_FILES = filesBelow(path.join(ROOT, 'credentials'), /\.credentials\.ts$/);
const NODE_FILES = filesBelow(path.join(ROOT, 'nodes'), /\.node\.ts$/);
const TS_FILES = [...filesBelow(path.join(ROOT, 'nodes'), /\.ts$/), ...CREDENTIAL_FILES];
const named = (files) => files.map((file) => [path.relative(ROOT, file), file]);

/** Problems a rule reports for one file (its `check`), over the file's syntax tree. */
const problemsIn = (check, file) => check(parseFile(file));
const problemsOf = (check, text, fileName) => check(parse(text, fileName));

/** cred-class-name-suffix: a credential class (implements ICredentialType) is named …Api. */
const credClassNameSuffix = (source) =>
	!source.fileName.endsWith('.credentials.ts')
		? []
		: classes(source)
				.filter(isCredentialTypeClass)
				.map((cls) => cls.name?.text)
				.filter((name) => name && !name.endsWith('Api'))
				.map((name) => `class ${name} does not end with Api`);

/** cred-class-name-field-conventions: its `name` field starts lower-case and ends with Api. */
function credNameField(source) {
	if (!source.fileName.endsWith('.credentials.ts')) return [];
	const problems = [];
	for (const cls of classes(source).filter(isCredentialTypeClass)) {
		const value = stringValue(classProperty(cls, 'name'));
		if (value === null) continue;
		if (/^[A-Z]/.test(value)) problems.push(`name '${value}' starts with a capital`);
		if (!value.endsWith('Api')) problems.push(`name '${value}' does not end with Api`);
	}
	return problems;
}

/** A node class's `description` when written as an object literal in the class, else null. */
const inlineDescription = (cls) => {
	const description = classProperty(cls, 'description');
	return description && ts.isObjectLiteralExpression(description) ? description : null;
};

/** node-filename-against-convention: Name.node.ts (or NameV2.node.ts) for `description.name`. */
function nodeFilename(source) {
	if (!source.fileName.endsWith('.node.ts')) return [];
	const actual = path.basename(source.fileName, '.node.ts').replace(/V\d+$/, '');
	return classes(source)
		.filter(isNodeTypeClass)
		.map((cls) => {
			const description = inlineDescription(cls);
			return description && stringValue(objectProperty(description, 'name'));
		})
		.filter(Boolean)
		.map((name) => name.charAt(0).toUpperCase() + name.slice(1))
		.filter((expected) => expected !== actual)
		.map((expected) => `${actual}.node.ts should be ${expected}.node.ts`);
}

const ITEM_ERRORS = ['NodeOperationError', 'NodeApiError'];

/**
 * No options, or options written out without `itemIndex` (options it cannot read, a variable
 * or a spread, pass).
 */
function lacksItemIndex(error) {
	const options = bare((error.arguments ?? [])[2]);
	if (!options) return true;
	if (!ts.isObjectLiteralExpression(options)) return false;
	if (options.properties.some(ts.isSpreadAssignment)) return false;
	return objectProperty(options, 'itemIndex') === undefined;
}

/**
 * node-operation-error-itemindex: inside the item loop of a node class's execute() in a .node.ts
 * file (a `for` whose test reads `<items>.length`, or a `for…of` over `<items>` or
 * this.getInputData(), `<items>` a variable set to this.getInputData() before the loop), a
 * `new NodeOperationError/NodeApiError` has `{ itemIndex }` in its third argument.
 */
function errorsWithoutItemIndex(source) {
	if (!source.fileName.endsWith('.node.ts')) return [];
	const problems = [];
	const items = new Set();
	const loops = new Set();
	let inNodeClass = false;
	let inExecute = false;
	const reset = () => {
		inExecute = false;
		items.clear();
		loops.clear();
	};
	const readsLength = (node) =>
		ts.isPropertyAccessExpression(node) &&
		node.name.text === 'length' &&
		ts.isIdentifier(node.expression) &&
		items.has(node.expression.text);
	const isComparison = (node) =>
		ts.isBinaryExpression(node) &&
		![
			ts.SyntaxKind.AmpersandAmpersandToken,
			ts.SyntaxKind.BarBarToken,
			ts.SyntaxKind.QuestionQuestionToken,
			ts.SyntaxKind.CommaToken,
		].includes(node.operatorToken.kind) &&
		!(
			node.operatorToken.kind >= ts.SyntaxKind.FirstAssignment &&
			node.operatorToken.kind <= ts.SyntaxKind.LastAssignment
		);
	const isItemLoop = (node) => {
		if (ts.isForStatement(node)) {
			const test = bare(node.condition);
			return Boolean(
				test && isComparison(test) && [test.left, test.right].map(bare).some(readsLength),
			);
		}
		if (!ts.isForOfStatement(node)) return false;
		const over = bare(node.expression);
		return (ts.isIdentifier(over) && items.has(over.text)) || isThisCall(over, 'getInputData');
	};
	visit(
		source,
		(node) => {
			if (ts.isClassDeclaration(node)) inNodeClass ||= isNodeTypeClass(node);
			else if (inNodeClass && isMethodNamed(node, 'execute')) inExecute = true;
			else if (!inExecute) return;
			else if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name)) {
				if (node.initializer && isThisCall(bare(node.initializer), 'getInputData')) {
					items.add(node.name.text);
				}
			} else if (isItemLoop(node)) loops.add(node);
			else if (
				loops.size > 0 &&
				ts.isNewExpression(node) &&
				ts.isIdentifier(node.expression) &&
				ITEM_ERRORS.includes(node.expression.text) &&
				lacksItemIndex(node)
			) {
				problems.push(`line ${lineOf(node)}: new ${node.expression.text} without { itemIndex }`);
			}
		},
		(node) => {
			if (ts.isClassDeclaration(node)) {
				inNodeClass = false;
				reset();
			} else if (inExecute && isMethodNamed(node, 'execute')) reset();
			else loops.delete(node);
		},
	);
	return problems;
}

/** require-continue-on-fail: a node class's execute() calls this.continueOnFail() anywhere. */
const executesWithoutContinueOnFail = (source) =>
	classes(source)
		.filter(isNodeTypeClass)
		.flatMap((cls) => cls.members.filter((member) => isMethodNamed(member, 'execute')))
		.filter(
			(execute) =>
				execute.body && !contains(execute.body, (node) => isThisCall(node, 'continueOnFail')),
		)
		.map((execute) => `${execute.parent.name?.text}.execute (line ${lineOf(execute)})`);

const byName = (a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' });

/**
 * options-sorted-alphabetically (a warning): in the `properties` array written in a node class's
 * description in a .node.ts file, every `type: 'options'` parameter whose options all have a
 * literal `name` lists them in alphabetical order (case-insensitive, locale-aware).
 */
function unsortedOptions(source) {
	if (!source.fileName.endsWith('.node.ts')) return [];
	const problems = [];
	for (const cls of classes(source).filter(isNodeTypeClass)) {
		const description = inlineDescription(cls);
		const properties = description && objectProperty(description, 'properties');
		if (!properties || !ts.isArrayLiteralExpression(properties)) continue;
		for (const property of properties.elements.filter(ts.isObjectLiteralExpression)) {
			if (stringValue(objectProperty(property, 'type')) !== 'options') continue;
			const options = objectProperty(property, 'options');
			if (!options || !ts.isArrayLiteralExpression(options)) continue;
			const names = options.elements.map((option) =>
				ts.isObjectLiteralExpression(option) ? stringValue(objectProperty(option, 'name')) : null,
			);
			if (names.includes(null) || names.length <= 1) continue;
			const sorted = [...names].sort(byName);
			if (names.some((name, at) => name !== sorted[at])) {
				problems.push(
					`${stringValue(objectProperty(property, 'displayName'))}: ${sorted.join(', ')}`,
				);
			}
		}
	}
	return problems;
}

/**
 * The severity npm run lint gives a rule of eslint-plugin-n8n-nodes-base: @n8n/node-cli's config
 * (this project's eslint.config.mjs) sets the plugin's `nodes` rules on nodes/ and its
 * `credentials` rules on credentials/, as the scanner does.
 */
const lintSeverity = (rule, ruleset) =>
	n8nNodesBase.configs[ruleset].rules[`n8n-nodes-base/${rule}`];

const credential = (cls, name) =>
	`export class ${cls} implements ICredentialType {\n\tname = ${name};\n\tdisplayName = 'X';\n\tproperties: INodeProperties[] = [];\n}`;

describe('cred-class-name-suffix', () => {
	test('the check refuses what the rule refuses', () => {
		const file = 'MyService.credentials.ts';
		expect(
			problemsOf(credClassNameSuffix, credential('MyService', "'myServiceApi'"), file),
		).toHaveLength(1);
		expect(
			problemsOf(credClassNameSuffix, credential('MyServiceApi', "'myServiceApi'"), file),
		).toEqual([]);
		expect(problemsOf(credClassNameSuffix, 'export class MyService {}', file)).toEqual([]);
		expect(problemsOf(credClassNameSuffix, credential('MyService', "'x'"), 'MyService.ts')).toEqual(
			[],
		);
	});

	test('replaced by n8n-nodes-base/cred-class-name-unsuffixed, an error in npm run lint', () => {
		expect(lintSeverity('cred-class-name-unsuffixed', 'credentials')).toBe('error');
	});

	test.each(named(CREDENTIAL_FILES))('%s', (_name, file) => {
		expect(problemsIn(credClassNameSuffix, file)).toEqual([]);
	});
});

describe('cred-class-name-field-conventions', () => {
	test('the check refuses what the rule refuses', () => {
		const check = (name) =>
			problemsOf(credNameField, credential('GithubApi', name), 'GithubApi.credentials.ts');
		expect(check("'Github'")).toHaveLength(2);
		expect(check("'GithubApi'")).toEqual(["name 'GithubApi' starts with a capital"]);
		expect(check("'github'")).toEqual(["name 'github' does not end with Api"]);
		expect(check("'githubApi'")).toEqual([]);
		expect(check('NAME')).toEqual([]);
	});

	test('replaced by n8n-nodes-base/cred-class-field-name-unsuffixed and -uppercase-first-char, errors in npm run lint', () => {
		for (const rule of [
			'cred-class-field-name-unsuffixed',
			'cred-class-field-name-uppercase-first-char',
		]) {
			expect(lintSeverity(rule, 'credentials')).toBe('error');
		}
	});

	test.each(named(CREDENTIAL_FILES))('%s', (_name, file) => {
		expect(problemsIn(credNameField, file)).toEqual([]);
	});
});

const nodeClass = (
	body,
	description = "{ displayName: 'GitHub', name: 'github', properties: [] }",
) =>
	`export class Github implements INodeType {\n\tdescription: INodeTypeDescription = ${description};\n${body}\n}`;

describe('node-filename-against-convention', () => {
	test('the check refuses what the rule refuses', () => {
		const check = (fileName, description) =>
			problemsOf(nodeFilename, nodeClass('', description), fileName);
		expect(check('Gitlab.node.ts')).toEqual(['Gitlab.node.ts should be Github.node.ts']);
		expect(check('github.node.ts')).toHaveLength(1);
		expect(check('Github.node.ts')).toEqual([]);
		expect(check('GithubV2.node.ts')).toEqual([]);
		expect(check('Gitlab.node.ts', 'baseDescription')).toEqual([]);
		expect(check('Gitlab.ts')).toEqual([]);
	});

	test('replaced by n8n-nodes-base/node-filename-against-convention, an error in npm run lint', () => {
		expect(lintSeverity('node-filename-against-convention', 'nodes')).toBe('error');
	});

	test.each(named(NODE_FILES))('%s', (_name, file) => {
		expect(problemsIn(nodeFilename, file)).toEqual([]);
	});
});

/** A node whose execute() reads the items and runs `loop`. */
const executing = (loop) =>
	nodeClass(
		`\tasync execute(this: IExecuteFunctions) {\n\t\tconst items = this.getInputData();\n\t\t${loop}\n\t\treturn [[]];\n\t}`,
	);

describe('node-operation-error-itemindex', () => {
	const check = (loop, fileName = 'Github.node.ts') =>
		problemsOf(errorsWithoutItemIndex, executing(loop), fileName);
	const thrown = (options) =>
		`try { x(); } catch (error) { throw new NodeOperationError(this.getNode(), error${options}); }`;

	test('the check refuses what the rule refuses', () => {
		const indexed = (body) => `for (let i = 0; i < items.length; i++) { ${body} }`;
		expect(check(indexed(thrown('')))).toEqual([
			'line 5: new NodeOperationError without { itemIndex }',
		]);
		expect(check(indexed(thrown(', { itemIndex: i }')))).toEqual([]);
		expect(check(`for (const item of this.getInputData()) { ${thrown(', {}')} }`)).toHaveLength(1);
		expect(
			check(
				'let itemIndex = 0; for (const item of items) { try { x(); } catch (e) { throw new NodeApiError(this.getNode(), e, { itemIndex }); } itemIndex++; }',
			),
		).toEqual([]);
		// Options it cannot read pass, as do errors outside an item loop or outside a .node.ts file.
		expect(check(indexed(thrown(', options')))).toEqual([]);
		expect(check(indexed(thrown(', { ...options }')))).toEqual([]);
		expect(check(thrown(''))).toEqual([]);
		expect(check('for (let i = 0; i < 3; i++) { ' + thrown('') + ' }')).toEqual([]);
		expect(check(indexed(thrown('')), 'router.ts')).toEqual([]);
	});

	test('replaced by n8n-nodes-base/node-execute-block-error-missing-item-index, an error in npm run lint', () => {
		expect(lintSeverity('node-execute-block-error-missing-item-index', 'nodes')).toBe('error');
	});

	// Passes as the rule reads it: the item loop is in actions/router.ts, not in an execute().
	test.each(named(NODE_FILES))('%s', (_name, file) => {
		expect(problemsIn(errorsWithoutItemIndex, file)).toEqual([]);
	});
});

describe('require-continue-on-fail', () => {
	const check = (loop, text = executing(loop)) =>
		problemsOf(executesWithoutContinueOnFail, text, 'Github.node.ts');

	test('the check refuses what the rule refuses', () => {
		expect(check('for (let i = 0; i < items.length; i++) { x(items[i]); }')).toEqual([
			'Github.execute (line 3)',
		]);
		expect(
			check(
				'for (let i = 0; i < items.length; i++) { try { x(); } catch (error) { if (this.continueOnFail()) continue; throw error; } }',
			),
		).toEqual([]);
		// Anywhere in execute(), even in a function of its own.
		expect(check('const fail = () => this.continueOnFail();')).toEqual([]);
		// Only a node class's execute(), in any file the lint reads.
		expect(check('', 'class Helper { async execute() { return 1; } }')).toEqual([]);
		// An execute() handing the items to a function of another file: refused.
		expect(check('return await router.call(this);')).toHaveLength(1);
	});

	test('replaced by n8n-nodes-base/node-execute-block-missing-continue-on-fail, an error in npm run lint', () => {
		expect(lintSeverity('node-execute-block-missing-continue-on-fail', 'nodes')).toBe('error');
	});

	// The Dynamic QR node breaks it, asserted so that any change shows here: its execute() hands
	// the items to actions/router.ts, which reads continueOnFail() for each failed item. The rule
	// is gone from n8n's source; its successor reads only an execute() that is one `for` loop, and
	// passes. Meeting the old rule would take a continueOnFail() call in DynamicQr.node.ts itself.
	test('on this package: only the Dynamic QR node', () => {
		const found = named(TS_FILES)
			.map(([name, file]) => [name, problemsIn(executesWithoutContinueOnFail, file)])
			.filter(([, problems]) => problems.length > 0);
		expect(Object.fromEntries(found)).toEqual({
			'nodes/DynamicQr/DynamicQr.node.ts': [expect.stringMatching(/^DynamicQrVersion\.execute /)],
		});
	});
});

describe('options-sorted-alphabetically (a warning)', () => {
	const check = (description) =>
		problemsOf(unsortedOptions, nodeClass('', description), 'Github.node.ts');
	/** A node whose one parameter, Resource, has these options. */
	const resource = (options) =>
		check(
			`{ name: 'github', properties: [{ displayName: 'Resource', name: 'resource', type: 'options', options: [${options}], default: 'v' }] }`,
		);
	const optionsNamed = (...names) =>
		names.map((name) => `{ name: '${name}', value: 'v' }`).join(', ');

	test('the check warns where the rule warns', () => {
		expect(resource(optionsNamed('User', 'Contact', 'Project'))).toEqual([
			'Resource: Contact, Project, User',
		]);
		expect(resource(optionsNamed('Contact', 'Project', 'User'))).toEqual([]);
		expect(resource(optionsNamed('apple', 'Banana'))).toEqual([]);
		// A name it cannot read, or properties not written inline: nothing to compare.
		expect(resource(`${optionsNamed('User')}, { name: CONTACT, value: 'v' }`)).toEqual([]);
		expect(check("{ name: 'github', properties }")).toEqual([]);
	});

	test('replaced by n8n-nodes-base/node-param-options-type-unsorted-items, an error in npm run lint', () => {
		expect(lintSeverity('node-param-options-type-unsorted-items', 'nodes')).toBe('error');
	});

	// Passes as the rule reads it: none of the three writes its properties inline. The lists built
	// from the QR type table (Type, 14 entries) are in the table's order, which no rule reads.
	test.each(named(NODE_FILES))('%s', (_name, file) => {
		expect(problemsIn(unsortedOptions, file)).toEqual([]);
	});
});
