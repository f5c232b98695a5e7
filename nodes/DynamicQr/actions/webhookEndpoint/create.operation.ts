import type { INodeProperties } from 'n8n-workflow';

import { unwrap } from '../../api';
import { type Operation, toItems } from '../run';
import { EVENT_OPTIONS } from '../../shared/eventOptions';
import { maskSigningSecrets, webhookSecretOf } from '../../shared/secrets';

export const description: INodeProperties[] = [
	{
		displayName: 'URL',
		name: 'url',
		type: 'string',
		required: true,
		default: '',
		placeholder: 'e.g. https://example.com/hooks/qr',
		description: 'The address that receives the signed events',
	},
	{
		displayName: 'Events',
		name: 'events',
		type: 'multiOptions',
		required: true,
		options: EVENT_OPTIONS,
		default: [],
		description: 'The events sent to the URL',
	},
	{
		displayName: 'Include Signing Secret',
		name: 'includeSecret',
		type: 'boolean',
		default: false,
		description:
			'Whether to output the signing secret (shown only once, at creation) so a later step can store it; anyone who can read this execution can then read it',
	},
];

export const execute: Operation = async function (itemIndex, run, parameters) {
	const body = { url: parameters.string('url').trim(), events: parameters.optionList('events') };
	// Read before the POST, so that a failing expression cannot lose the one-time secret.
	const includeSecret = parameters.boolean('includeSecret');
	const answer = await run.client.request('POST', '/webhooks', { body, itemIndex });
	// Wherever the answer holds the secret, it is output as `secret`, hidden unless asked for.
	const secret = webhookSecretOf(answer);
	const endpoint = secret === undefined ? unwrap(answer) : { ...unwrap(answer), secret };
	const hidden = '[hidden: turn on Include Signing Secret to output it]';
	return toItems(includeSecret ? endpoint : maskSigningSecrets(endpoint, hidden));
};
