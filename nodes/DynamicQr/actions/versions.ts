import type { INodeProperties } from 'n8n-workflow';

/** New nodes get the last; version 2 changes the payload (payload/names.ts). */
export const ACTION_VERSIONS = [1, 2];
export const LATEST_ACTION_VERSION = ACTION_VERSIONS[ACTION_VERSIONS.length - 1];

export const sinceVersion = (version: number) => [{ _cnd: { gte: version } }];

/** A version number, or the `gte` of sinceVersion(); any other rule throws rather than guess. */
function versionMatches(entry: unknown, version: number): boolean {
	if (typeof entry === 'number') return entry === version;
	const since = (entry as { _cnd?: { gte?: unknown } } | null)?._cnd?.gte;
	if (typeof since !== 'number')
		throw new Error(`Unsupported '@version' rule: ${JSON.stringify(entry)}`);
	return version >= since;
}

/** The operations declare every version's properties in one list; each version takes its own. */
export const propertiesOfVersion = (properties: INodeProperties[], version: number) =>
	properties.filter(({ displayOptions }) => {
		const matches = (entry: unknown) => versionMatches(entry, version);
		const shown = displayOptions?.show?.['@version'];
		return (!shown || shown.some(matches)) && !displayOptions?.hide?.['@version']?.some(matches);
	});
