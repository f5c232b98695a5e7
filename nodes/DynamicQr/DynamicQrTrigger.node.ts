import type {
	ICredentialsDecrypted,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeProperties,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
} from 'n8n-workflow';
import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';

import { endpointExists, registerEndpoint, removeEndpoint } from './trigger/endpoint';
import { receiveDelivery } from './trigger/receive';
import { triggerSettings } from './trigger/filters';
import { EVENT_OPTIONS } from './shared/eventOptions';
import { isValidSecret } from './shared/secrets';
import { nodeVersions } from './shared/nodeVersions';

/** The trigger's parameters; trigger/ reads them by these declarations (triggerSettings). */
const triggerProperties: INodeProperties[] = [
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

/** A version of the trigger (as written, version 2); every version runs the same methods. */
class DynamicQrTriggerVersion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR Trigger',
		name: 'dynamicQrTrigger',
		icon: { light: 'file:dynamicQrTrigger.svg', dark: 'file:dynamicQrTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2: the dashboard secret is a credential, and a delivery evaluates no expression
		// (version 1's does), so N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE sets up no isolate for it.
		version: 2,
		// The chosen events by name ("Scan Created, Lead Created"), not by value; found in a list
		// of pairs, as an object would find "constructor" in it.
		subtitle: `={{ $parameter["events"].map((event) => (${JSON.stringify(
			EVENT_OPTIONS.map((option) => [option.value, option.name]),
		)}.find((pair) => pair[0] === event) || [event, event])[1]).join(", ") }}`,
		// n8n's nodes panel shows one entry for this trigger and the Dynamic QR node, with this
		// description: it speaks for both.
		description:
			'Create and re-point dynamic QR codes, download print files, and start workflows when a code is scanned, a lead arrives or a code changes',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-trigger',
		defaults: { name: 'Dynamic QR Trigger' },
		// For n8n's AI workflow builder (n8n 2.x; n8n 1.x ignores it). Plain text, no expressions.
		builderHint: {
			searchHint:
				'Starts a workflow the moment a dynamic QR code is scanned, a lead is shared on a card, or a code is created, updated or deleted. The service sends signed webhooks to n8n, so n8n needs a public HTTPS address; where the service cannot reach n8n (localhost, private network), use the Dynamic QR Polling Trigger. By default it registers and removes its webhook endpoint itself, which needs a read-write API key.',
			relatedNodes: Object.entries({
				'n8n-nodes-base.slack': 'Posts an alert for each scan or new lead',
				'n8n-nodes-base.gmail': 'Sends a follow-up email to a new lead',
				'n8n-nodes-base.googleSheets': 'Logs scans or leads as rows',
				'n8n-nodes-base.hubspot': 'Adds a new lead as a CRM contact',
				'n8n-nodes-base.switch': "Routes each event type (the item's type field) to its own branch",
				'n8n-nodes-dynamic-qr.dynamicQr':
					'Reads or changes the code an event is about, e.g. its scan statistics',
				'n8n-nodes-dynamic-qr.dynamicQrPollingTrigger':
					'Use instead when the service cannot reach this n8n',
			}).map(([nodeType, relationHint]) => ({ nodeType, relationHint })),
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'dynamicQrApi',
				required: true,
				displayOptions: { show: { endpointMode: ['automatic'] } },
			},
			{
				name: 'dynamicQrSigningSecretApi',
				required: true,
				displayOptions: { show: { endpointMode: ['dashboard'] } },
				testedBy: 'signingSecretFormat',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				// Empty, so that n8n answers with the body the trigger returns (webhookResponse), which
				// n8n 2.x reads after starting the execution (docs/n8n-behaviours.md, 5).
				responseData: '',
				path: 'webhook',
			},
		],
		properties: triggerProperties,
	};

	/** Version 1 has only the API credential: its Signing Secret field holds a dashboard secret. */
	constructor(version: number) {
		const [api] = this.description.credentials ?? [];
		if (version === 1) this.description = { ...this.description, version, credentials: [api] };
	}

	methods = {
		credentialTest: {
			/** The credential's Test button: no API call knows the secret, so its form is checked. */
			async signingSecretFormat(
				credential: ICredentialsDecrypted,
			): Promise<INodeCredentialTestResult> {
				return isValidSecret(String(credential.data?.signingSecret ?? '').trim())
					? { status: 'OK', message: 'The signing secret is well-formed' }
					: {
							status: 'Error',
							message:
								'Not a signing secret: copy it from the endpoint in the dashboard; it begins with "whsec_" followed by base64 text',
						};
			},
		},
	};

	webhookMethods = {
		default: {
			async checkExists(this: IHookFunctions): Promise<boolean> {
				return await endpointExists(this, triggerSettings(this, triggerProperties));
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await registerEndpoint(this, triggerSettings(this, triggerProperties));
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await removeEndpoint(this, triggerSettings(this, triggerProperties));
			},
		},
	};

	async webhook(this: IWebhookFunctions) {
		return await receiveDelivery(this, triggerSettings(this, triggerProperties));
	}
}

/** A description per version: only version 2 shows a credential for each Endpoint. */
export class DynamicQrTrigger extends VersionedNodeType {
	constructor() {
		super(...nodeVersions([1, 2].map((version) => new DynamicQrTriggerVersion(version))));
	}
}
