'use strict';
/**
 * TypeScript sources read as n8n's community-node lint rules read them: the syntax tree of a
 * file (TypeScript's own parser), walked in source order as ESLint walks it, and the few
 * questions the rules ask of it (the helpers of @n8n/eslint-plugin-community-nodes' ast-utils:
 * isNodeTypeClass, isCredentialTypeClass, findClassProperty, findObjectProperty, string literals).
 */
const fs = require('node:fs');
const ts = require('typescript');

const parse = (text, fileName) =>
	ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
const parseFile = (file) => parse(fs.readFileSync(file, 'utf8'), file);

/** Calls enter(node) before a node's children and exit(node) after them, in source order. */
function visit(node, enter, exit = () => {}) {
	enter(node);
	ts.forEachChild(node, (child) => {
		visit(child, enter, exit);
	});
	exit(node);
}

/** Whether any node below `node` (or itself) passes `test`. */
function contains(node, test) {
	if (test(node)) return true;
	return ts.forEachChild(node, (child) => contains(child, test) || undefined) === true;
}

/** ESTree has no parentheses: look through them. */
const bare = (node) => (node && ts.isParenthesizedExpression(node) ? bare(node.expression) : node);

const classes = (sourceFile) => {
	const found = [];
	visit(sourceFile, (node) => ts.isClassDeclaration(node) && found.push(node));
	return found;
};

const heritage = (cls, token) =>
	(cls.heritageClauses ?? [])
		.filter((clause) => clause.token === token)
		.flatMap((clause) => clause.types.map((type) => type.expression))
		.filter(ts.isIdentifier)
		.map((identifier) => identifier.text);

/** `implements INodeType`, or `extends Node` (the rules' isNodeTypeClass). */
const isNodeTypeClass = (cls) =>
	heritage(cls, ts.SyntaxKind.ImplementsKeyword).includes('INodeType') ||
	heritage(cls, ts.SyntaxKind.ExtendsKeyword).includes('Node');
const isCredentialTypeClass = (cls) =>
	heritage(cls, ts.SyntaxKind.ImplementsKeyword).includes('ICredentialType');

/** The value of a class field (`name = '…'`), as written. */
const classProperty = (cls, name) =>
	cls.members.find(
		(member) =>
			ts.isPropertyDeclaration(member) && ts.isIdentifier(member.name) && member.name.text === name,
	)?.initializer;

/** The value of an object literal's property named by an identifier (`name: …` or `name`). */
function objectProperty(object, name) {
	const property = object.properties.find(
		(member) => member.name && ts.isIdentifier(member.name) && member.name.text === name,
	);
	if (!property) return undefined;
	if (ts.isPropertyAssignment(property)) return property.initializer;
	if (ts.isShorthandPropertyAssignment(property)) return property.name;
	return property;
}

/** A string literal's text ('…' or "…"), else null. */
const stringValue = (node) => (node && ts.isStringLiteral(bare(node)) ? bare(node).text : null);

/** Whether a node is a call `this.<method>(…)`. */
const isThisCall = (node, method) =>
	ts.isCallExpression(node) &&
	ts.isPropertyAccessExpression(node.expression) &&
	node.expression.expression.kind === ts.SyntaxKind.ThisKeyword &&
	node.expression.name.text === method;

/** A class method named `name` (not an object literal's). */
const isMethodNamed = (node, name) =>
	ts.isMethodDeclaration(node) &&
	ts.isClassLike(node.parent) &&
	ts.isIdentifier(node.name) &&
	node.name.text === name;

const lineOf = (node) =>
	node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

module.exports = {
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
};
