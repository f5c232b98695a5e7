import type { IExecuteFunctions, INodeProperties } from 'n8n-workflow';

import type { ClientSettings } from '../api';
import { DEFAULT_IN_FLIGHT, DEFAULT_MAX_WAIT_SECONDS, hasControlCharacters } from '../api';
import { ParameterReader } from '../shared/parameters';
import { collection } from './display';
import { propertiesOfVersion } from './versions';

/** By the node version's declarations (a parameter may be optional in one, required in another). */
export function operationParameters(
	ctx: IExecuteFunctions,
	itemIndex: number,
	properties: INodeProperties[],
): ParameterReader {
	const node = ctx.getNode();
	return new ParameterReader(
		{ node, itemIndex, get: (name, fallback) => ctx.getNodeParameter(name, itemIndex, fallback) },
		propertiesOfVersion(properties, node.typeVersion),
	);
}

const MAX_BINARY_FIELD_NAME = 100;

/** The binary field an operation reads (Logo Upload) or writes (the images); binaryFieldName(). */
export const binaryFieldProperty = (displayName: string, hint: string): INodeProperties => ({
	displayName,
	name: 'binaryPropertyName',
	type: 'string',
	default: 'data',
	required: true,
	hint,
});

/** The name of a binary field (input or output): non-empty text without control characters. */
export function binaryFieldName(parameters: ParameterReader): string {
	const name = parameters.string('binaryPropertyName', { required: true }).trim();
	if (!name || hasControlCharacters(name) || name.length > MAX_BINARY_FIELD_NAME) {
		throw parameters.fail(
			{ property: parameters.property('binaryPropertyName') },
			name,
			`a field name such as "data": text of 1 to ${MAX_BINARY_FIELD_NAME} characters without control characters`,
		);
	}
	return name;
}

/** Every operation's Request Options: how many items at once, and how long to wait out 429s. */
export const requestOptionsProperty = collection(
	'Request Options',
	'requestOptions',
	'Add Option',
	[
		{
			displayName: 'Concurrent Requests',
			name: 'concurrency',
			type: 'number',
			typeOptions: { minValue: 1, maxValue: 20 },
			default: DEFAULT_IN_FLIGHT,
			description:
				"The most requests in flight at once, paced at the plan's rate; without this option, 10, the default shown (1 sends one request at a time). Items of one record always run in input order; output order and pairing are kept.",
		},
		{
			displayName: 'Max Rate Limit Wait (Seconds)',
			name: 'maxRateLimitWait',
			type: 'number',
			typeOptions: { minValue: 0 },
			default: 300,
			description:
				'When the API answers 429 (too many requests), wait the time it asks for and retry, up to this many seconds in total per request',
		},
	],
);

/** Read once, from the first item: a bad value stops the run with an error naming the option. */
export function readRequestOptions(ctx: IExecuteFunctions): ClientSettings {
	const parameters = operationParameters(ctx, 0, [requestOptionsProperty]);
	const { concurrency, maxRateLimitWait } = parameters.collection('requestOptions');
	return {
		concurrency: concurrency as number | undefined,
		maxWaitSeconds: (maxRateLimitWait as number | undefined) ?? DEFAULT_MAX_WAIT_SECONDS,
	};
}
