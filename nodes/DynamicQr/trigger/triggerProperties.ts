import type { IDataObject, INodeProperties } from 'n8n-workflow';

import { eventCardId, eventQrCodeId, normaliseEvents } from '../api';
import { checkedMilestones } from '../shared/milestoneNumbers';
import { nodeParameters } from '../shared/parameters';
import { EVENT_OPTIONS } from '../shared/eventOptions';
import type { TriggerContext } from './state';

/** The trigger's parameters: the node file shows them; trigger/ reads them by their declared types. */
export const triggerProperties: INodeProperties[] = [
	{
		displayName: 'Endpoint',
		name: 'endpointMode',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'Register Automatically',
				value: 'automatic',
				description:
					'Registers a webhook endpoint at the service when the workflow is activated and removes it when deactivated (needs a read-write API key)',
			},
			{
				name: 'Created in the Dashboard',
				value: 'dashboard',
				description:
					"Uses an endpoint you created in the service's dashboard for this node's webhook URL, checked with that endpoint's signing secret",
			},
		],
		default: 'automatic',
	},
	{
		displayName:
			"In the service's dashboard, add a webhook endpoint whose URL is this node's Production URL (above), with the same events as chosen here, and give this node the endpoint's signing secret. Nothing is registered or removed automatically.",
		name: 'dashboardNotice',
		type: 'notice',
		default: '',
		displayOptions: { show: { endpointMode: ['dashboard'] } },
	},
	{
		displayName: 'Signing Secret',
		name: 'signingSecret',
		type: 'string',
		typeOptions: { password: true },
		required: true,
		default: '',
		placeholder: 'e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
		description:
			'The signing secret the dashboard shows for the endpoint; it begins with "whsec_". Deliveries whose signature does not match it are refused.',
		displayOptions: { show: { endpointMode: ['dashboard'], '@version': [1] } },
	},
	{
		displayName: 'Trigger On',
		name: 'events',
		type: 'multiOptions',
		required: true,
		default: [],
		options: EVENT_OPTIONS,
		description: 'The events that start the workflow; choose at least one',
		builderHint: {
			propertyHint:
				'Choose only the events the workflow handles: scan.created for each scan, lead.created for contact data shared on a card, qr_code.created, qr_code.updated and qr_code.deleted to mirror codes elsewhere.',
		},
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		builderHint: {
			propertyHint:
				'scanMilestones (e.g. "100, 1000, 10000") makes scans start the workflow only when a code reaches one of those scan counts, once per code and milestone; qrCodeIds and cardIds narrow events to some codes or cards.',
		},
		options: [
			{
				displayName: 'Only These Cards',
				name: 'cardIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. a1B2c3D4e5F6, g7H8i9J0k1L2',
				description:
					'Comma-separated card IDs. Leads shared on other cards are acknowledged without starting the workflow. Applies to Lead Created only.',
			},
			{
				displayName: 'Only These QR Codes',
				name: 'qrCodeIds',
				type: 'string',
				default: '',
				placeholder: 'e.g. a1B2c3D4e5F6, g7H8i9J0k1L2',
				description:
					'Comma-separated QR code IDs. Events about other codes are acknowledged without starting the workflow. Applies to the QR code and scan events.',
			},
			{
				displayName: 'Only at Scan Milestones',
				name: 'scanMilestones',
				type: 'string',
				default: '',
				placeholder: 'e.g. 100, 1000, 10000',
				description:
					"Comma-separated scan counts. A scan starts the workflow only when its code's count reaches one of them, once per code and milestone; milestones a code had passed when the workflow was activated never do. Reads the scanned code with the API, so it needs Endpoint: Register Automatically. Applies to Scan Created only.",
			},
		],
	},
];

export const triggerParameters = (ctx: TriggerContext) => nodeParameters(ctx, triggerProperties);

export type DeliveryFilters = ReturnType<typeof readFilters>;

export const allows = (ids: string[], id: string | undefined) =>
	ids.length === 0 || (id !== undefined && ids.includes(id));

/** Why an event is not for this workflow, if it is not. */
export function filterOut(type: string, data: IDataObject | undefined, filters: DeliveryFilters) {
	if (!filters.events.includes(type)) return `event type "${type}" is not selected`;
	const isAboutQrCode = type.startsWith('qr_code.') || type === 'scan.created';
	if (isAboutQrCode && !allows(filters.qrCodeIds, eventQrCodeId(type, data)))
		return 'QR code not in the filter';
	if (type === 'lead.created' && !allows(filters.cardIds, eventCardId(type, data)))
		return 'card not in the filter';
	return undefined;
}

export function readFilters(ctx: TriggerContext) {
	const parameters = triggerParameters(ctx);
	// Each a list: comma-separated text or a list from an expression, entries trimmed.
	const filters = parameters.collection('filters', ['qrCodeIds', 'cardIds', 'scanMilestones']);
	const field = parameters.optionField('filters', 'scanMilestones');
	const list = (value: unknown) => (value ?? []) as string[];
	return {
		// None chosen is for activation to explain ("No event is selected").
		events: normaliseEvents(parameters.optionList('events', { required: false })),
		qrCodeIds: list(filters.qrCodeIds),
		cardIds: list(filters.cardIds),
		milestones: checkedMilestones(parameters, field, list(filters.scanMilestones)),
	};
}
