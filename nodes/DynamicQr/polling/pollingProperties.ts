import type { INodeProperties, IPollFunctions } from 'n8n-workflow';

import { codeFilterOptions } from '../shared/codeFilters';
import { nodeParameters } from '../shared/parameters';
import { DEFAULT_PLAN_SHARE_PERCENT, type PlanShare } from '../api';

export const SCAN_EVENTS = ['newScans', 'scanMilestone', 'quietCode'] as const;
export type ScanEvent = (typeof SCAN_EVENTS)[number];
export const isScanEvent = (event: string): event is ScanEvent =>
	(SCAN_EVENTS as readonly string[]).includes(event);
const forEvents = (...events: string[]) => ({ show: { event: events } });

/** Trigger On's options by value; `action` too, or n8n lowercases the name in the nodes panel. */
const TRIGGER_ON: Record<string, [name: string, description: string]> = {
	newLead: [
		'New Lead on a Card',
		'A visitor shared contact data on a card: one, some or all of them',
	],
	newQrCode: ['New QR Code', 'A QR code was created in the workspace'],
	newScans: [
		'New Scans',
		'A code was scanned since the last poll: one item per code, with its new scans',
	],
	quietCode: ['Quiet Code', 'A code has had no scan for the days set, once per quiet spell'],
	scanMilestone: [
		'Scan Milestone',
		'A code reached one of the scan counts set, once per code and milestone',
	],
	endpointStopped: [
		'Webhook Endpoint Stopped',
		'A webhook endpoint of the account no longer receives: paused, removed, or its address does not answer',
	],
};

/** The polling trigger's parameters: the node file shows them; polling/ reads them by their types. */
export const pollingProperties: INodeProperties[] = [
	{
		displayName:
			'Use this node when the service cannot reach this n8n (localhost, private network). Otherwise the Dynamic QR Trigger starts the workflow at once and covers more events. Only records created, and scans made, after activation start the workflow.',
		name: 'pollingNotice',
		type: 'notice',
		default: '',
	},
	{
		displayName: 'Trigger On',
		name: 'event',
		type: 'options',
		noDataExpression: true,
		options: Object.entries(TRIGGER_ON).map(([value, [name, description]]) => ({
			name,
			action: `On ${name}`,
			value,
			description,
		})),
		default: 'newLead',
		builderHint: {
			propertyHint:
				'newLead watches the leads of the cards set in cards (one: cardId; chosen: cardIds; all, also later ones); newQrCode watches every code of the account; newScans, scanMilestone and quietCode compare the scan counts of the codes (narrowed by filters) with the last poll.',
		},
	},
	{
		displayName: 'Cards',
		name: 'cards',
		type: 'options',
		noDataExpression: true,
		options: [
			{
				name: 'All Cards',
				value: 'all',
				description: 'Every card of the account, also cards added after activation',
			},
			{ name: 'Chosen Cards', value: 'chosen', description: 'The cards chosen below' },
			{ name: 'One Card', value: 'one', description: 'The card chosen below' },
		],
		default: 'one',
		description: 'Whose new leads start the workflow',
		displayOptions: forEvents('newLead'),
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
		displayOptions: { show: { event: ['newLead'], cards: ['one'] } },
	},
	{
		displayName: 'Card Names or IDs',
		name: 'cardIds',
		type: 'multiOptions',
		typeOptions: { loadOptionsMethod: 'getCards' },
		required: true,
		default: [],
		description:
			'The cards whose new leads start the workflow. Choose from the list, or specify IDs using an <a href="https://docs.n8n.io/code/expressions/">expression</a>.',
		displayOptions: { show: { event: ['newLead'], cards: ['chosen'] } },
	},
	{
		displayName:
			'Each poll reads the first page of codes and goes on through the list where the last poll stopped, with at most its share of the plan (100 codes a request): a change is reported within one sweep of the list. Include Breakdown adds one statistics request per code scanned.',
		name: 'scanPollNotice',
		type: 'notice',
		default: '',
		displayOptions: forEvents(...SCAN_EVENTS),
	},
	{
		displayName: 'Milestones',
		name: 'milestones',
		type: 'string',
		required: true,
		default: '100, 1000, 10000',
		placeholder: 'e.g. 100, 1000, 10000',
		description:
			'Scan counts that start the workflow once per code when reached, as comma-separated whole numbers (or a list). Milestones a code had already passed at activation never start it.',
		displayOptions: forEvents('scanMilestone'),
	},
	{
		displayName: 'Quiet for (Days)',
		name: 'quietDays',
		type: 'number',
		required: true,
		typeOptions: { minValue: 1 },
		default: 30,
		description:
			'Days without a scan (since its last scan, or since it was created when never scanned) after which a code starts the workflow; again only after a new scan and a new quiet spell',
		displayOptions: forEvents('quietCode'),
	},
	{
		displayName: 'Include Breakdown',
		name: 'includeBreakdown',
		type: 'boolean',
		default: false,
		description:
			"Whether to add each scanned code's statistics (scans per day, countries, devices …) for whole days, from the day the code was last read through today; one more request per scanned code",
		displayOptions: forEvents('newScans'),
	},
	{
		displayName: 'Share of Plan (%)',
		name: 'planShare',
		type: 'number',
		typeOptions: { minValue: 1, maxValue: 100 },
		default: DEFAULT_PLAN_SHARE_PERCENT,
		description:
			"The most of the API key's requests a minute one poll may use (of a minute's, for polls less than a minute apart); the rest stays for other workflows on the key. A poll reads what this allows and the next goes on from there. For New Lead, only with more than one card.",
		displayOptions: forEvents(...SCAN_EVENTS, 'newLead'),
	},
	{
		displayName: 'Plan Requests per Minute',
		name: 'planRequestsPerMinute',
		type: 'number',
		typeOptions: { minValue: 0 },
		default: 0,
		description:
			"The API key's rate limit; 0 learns it from the service's answers (X-RateLimit headers). Set it when other workflows spend the key's requests, since what is left then reads as less.",
		displayOptions: forEvents(...SCAN_EVENTS, 'newLead'),
	},
	{
		displayName: 'Check Addresses',
		name: 'checkAddresses',
		type: 'boolean',
		default: true,
		description:
			"Whether each poll also sends the address of every active endpoint of a Dynamic QR Trigger (an n8n URL ending in /webhook) an unsigned request, which the trigger refuses and starts nothing for: an address that does not answer, or answers 404 or a server error, is reported as unreachable. Other endpoints are sent nothing.",
		displayOptions: forEvents('endpointStopped'),
	},
	{
		displayName: 'Filters',
		name: 'filters',
		type: 'collection',
		placeholder: 'Add Filter',
		default: {},
		description: 'Only the codes the list returns with these filters are watched',
		displayOptions: forEvents(...SCAN_EVENTS),
		options: codeFilterOptions('watch'),
	},
];

export const pollingParameters = (ctx: IPollFunctions) => nodeParameters(ctx, pollingProperties);

/** Share of Plan and Plan Requests per Minute (api/rate.ts), with what the last poll learnt. */
export const shareSettings = (
	parameters: ReturnType<typeof pollingParameters>,
	last: { polledMs: number; learntLimit?: number } | undefined,
	nowMs: number,
): PlanShare => ({
	sharePercent: parameters.number('planShare') ?? DEFAULT_PLAN_SHARE_PERCENT,
	planLimit: parameters.number('planRequestsPerMinute') || undefined,
	learntLimit: last?.learntLimit,
	sinceLastPollMs: last ? nowMs - last.polledMs : undefined,
});
