import type {
	ICredentialsDecrypted,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';

import { triggerProperties } from './trigger/triggerProperties';
import { endpointExists, registerEndpoint, removeEndpoint } from './trigger/endpoint';
import { receiveDelivery } from './trigger/receive';
import { EVENT_OPTIONS } from './shared/eventOptions';
import { isValidSecret } from './shared/secrets';
import { nodeVersions } from './shared/nodeVersions';

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
				return await endpointExists(this);
			},
			async create(this: IHookFunctions): Promise<boolean> {
				return await registerEndpoint(this);
			},
			async delete(this: IHookFunctions): Promise<boolean> {
				return await removeEndpoint(this);
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		return await receiveDelivery(this);
	}
}

/** A description per version: only version 2 shows a credential for each Endpoint. */
export class DynamicQrTrigger extends VersionedNodeType {
	constructor() {
		super(...nodeVersions([1, 2].map((version) => new DynamicQrTriggerVersion(version))));
	}
}
