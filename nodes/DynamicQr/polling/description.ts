import type { INodeProperties, IPollFunctions } from 'n8n-workflow';
import { nodeParameters } from '../shared/parameters';

/** The polling trigger's parameters: the node file shows them; polling/ reads them by their types. */
export const pollingProperties: INodeProperties[] = [
	{
		displayName:
			'Use this node when the service cannot reach this n8n (localhost, private network). Otherwise the Dynamic QR Trigger starts the workflow at once and covers more events. Only records created after activation start the workflow.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'New Lead on a Card',
				action: 'On New Lead on a Card',
				value: 'newLead',
				description: 'A visitor shared contact data on the chosen card',
			},
			{
				name: 'New QR Code',
				action: 'On New QR Code',
				value: 'newQrCode',
				description: 'A QR code was created in the workspace',
			},
		],
		default: 'newLead',
		builderHint: {
			propertyHint:
				'newLead watches the leads of one card, chosen in cardId; newQrCode watches every code of the account.',
		},
	},
	{
		displayName: 'Card Name or ID',
		name: 'cardId',
		type: 'options',
		typeOptions: { loadOptionsMethod: 'getCards' },
		required: true,
		default: '',
		builderHint: {
			propertyHint: "The card's 12-character ID, from the account's list of cards.",
		},
		description:
			'The card whose new leads start the workflow. Choose from the list, or specify an ID using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: {
			show: {
				event: ['newLead'],
			},
		},
	},
];

/** The polling trigger's parameters, read by their declared types. */
export const pollingParameters = (ctx: IPollFunctions) => nodeParameters(ctx, pollingProperties);
