import type { INodeType, VersionedNodeType } from 'n8n-workflow';

/** VersionedNodeType's arguments: the nodes by version, what they share; new nodes get the last. */
export function nodeVersions(nodes: INodeType[]): ConstructorParameters<typeof VersionedNodeType> {
	const { displayName, name, icon, group, description, documentationUrl, version } =
		nodes[nodes.length - 1].description;
	const byVersion = Object.fromEntries(nodes.map((node) => [node.description.version, node]));
	const base = { displayName, name, icon, group, description, documentationUrl };
	return [byVersion, { ...base, defaultVersion: version as number }];
}
