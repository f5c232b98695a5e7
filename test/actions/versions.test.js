'use strict';
/**
 * The Dynamic QR node's versions: version 2 differs from version 1 only in how the payload is
 * given (the mixed-type fields in one collection, Payload (JSON) required); every other property
 * is the same, so a saved version 1 node and a new version 2 node run the same operations.
 */
const path = require('node:path');
const { DIST } = require('../engine/n8n-core');

const { DynamicQr } = require(path.join(DIST, 'nodes/DynamicQr/DynamicQr.node.js'));
const { propertiesOfVersion } = require(
	path.join(DIST, 'nodes/DynamicQr/actions/versions.js'),
);

const node = new DynamicQr();
const v1 = node.getNodeType(1).description;
const v2 = node.getNodeType(2).description;
const PAYLOAD = /^(payloadJson|mixedPayload(_.*)?)$/;
const named = (description, pattern) =>
	description.properties.filter((property) => pattern.test(property.name));
/** A property without its '@version' display rule, to compare what the versions share. */
const withoutVersionRule = ({ displayOptions, ...property }) => {
	if (!displayOptions?.show?.['@version']) return { ...property, displayOptions };
	const { '@version': _, ...show } = displayOptions.show;
	return { ...property, displayOptions: { ...displayOptions, show } };
};

test('new nodes get version 2; version 1 stays for saved workflows', () => {
	expect(node.description.defaultVersion).toBe(2);
	expect(Object.keys(node.nodeVersions)).toEqual(['1', '2']);
	expect([v1.version, v2.version]).toEqual([1, 2]);
});

test('every property but the payload’s is the same in both versions', () => {
	const rest = (description) =>
		description.properties.filter((property) => !PAYLOAD.test(property.name));
	expect(rest(v2)).toEqual(rest(v1));
	expect(rest(v1).length).toBeGreaterThan(50);
});

test('version 1: optional Payload (JSON) and one top-level parameter per mixed-type field', () => {
	expect(named(v1, /^payloadJson$/).map((property) => property.required)).toEqual([
		undefined,
		undefined,
		undefined,
	]);
	expect(named(v1, /^mixedPayload$/)).toEqual([]);
	expect(named(v1, /^mixedPayload_/).length).toBeGreaterThan(40);
});

test('version 2: required Payload (JSON), and the mixed-type fields as options of Payload Fields, same names and types', () => {
	const v1Json = named(v1, /^payloadJson$/).map(withoutVersionRule);
	const v2Json = named(v2, /^payloadJson$/).map(withoutVersionRule);
	expect(v2Json).toEqual(v1Json.map((property) => ({ ...property, required: true })));
	expect(named(v2, /^mixedPayload_/)).toEqual([]);
	const collections = named(v2, /^mixedPayload$/);
	// One per payload operation: Create / Create or Update, Update, Static Generate.
	expect(collections).toHaveLength(3);
	for (const collection of collections) {
		expect(collection).toMatchObject({ type: 'collection', displayName: 'Payload Fields' });
		const { operation } = collection.displayOptions.show;
		const topLevel = named(v1, /^mixedPayload_/).filter(
			(property) => property.displayOptions.show.operation.join() === operation.join(),
		);
		const asOptions = topLevel.map(({ displayOptions, name, ...field }) => ({
			...field,
			name: name.slice('mixedPayload_'.length),
		}));
		const byName = (a, b) => a.name.localeCompare(b.name);
		expect([...collection.options].sort(byName)).toEqual(asOptions.sort(byName));
		const labels = collection.options.map((option) => option.displayName);
		expect(labels).toEqual([...labels].sort((a, b) => a.localeCompare(b)));
	}
});

test('a display rule on @version the filter cannot read fails loudly', () => {
	const property = (version) => ({
		displayName: 'X',
		name: 'x',
		type: 'string',
		default: '',
		displayOptions: { show: { '@version': version } },
	});
	expect(propertiesOfVersion([property([1]), property([{ _cnd: { gte: 2 } }])], 1)).toHaveLength(1);
	expect(propertiesOfVersion([property([1]), property([{ _cnd: { gte: 2 } }])], 3)).toHaveLength(1);
	expect(() => propertiesOfVersion([property([{ _cnd: { lt: 2 } }])], 1)).toThrow(
		"Unsupported '@version' rule",
	);
});
