import type { INodeProperties } from 'n8n-workflow';

/**
 * The Dynamic QR node's versions; new nodes get the last. What version 2 changes is the payload
 * (payload/names.ts); version 1 keeps what saved workflows hold.
 */
export const ACTION_VERSIONS = [1, 2];
export const LATEST_ACTION_VERSION = ACTION_VERSIONS[ACTION_VERSIONS.length - 1];

/** The display rule of a property that exists from `version` on. */
export const sinceVersion = (version: number) => [{ _cnd: { gte: version } }];

/**
 * Whether one entry of an '@version' display rule holds: a version number, or the `gte` condition
 * sinceVersion() writes. Any other rule throws when the node loads, rather than guess.
 */
function versionMatches(entry: unknown, version: number): boolean {
	if (typeof entry === 'number') return entry === version;
	const since = (entry as { _cnd?: { gte?: unknown } } | null)?._cnd?.gte;
	if (typeof since !== 'number')
		throw new Error(`Unsupported '@version' rule: ${JSON.stringify(entry)}`);
	return version >= since;
}

/** Whether a property exists in a version, by the '@version' keys of its display rules. */
function inVersion(property: INodeProperties, version: number): boolean {
	const shown = property.displayOptions?.show?.['@version'];
	const hidden = property.displayOptions?.hide?.['@version'];
	if (shown && !shown.some((entry) => versionMatches(entry, version))) return false;
	return !hidden?.some((entry) => versionMatches(entry, version));
}

/**
 * The properties one version of a node has. The operations declare every version's properties
 * in one list; each version's description, and the reader of its parameters, take their own.
 */
export const propertiesOfVersion = (properties: INodeProperties[], version: number) =>
	properties.filter((property) => inVersion(property, version));
