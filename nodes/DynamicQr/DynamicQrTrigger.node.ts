import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { EVENT_OPTIONS } from './api';
import { endpointExists, registerEndpoint, removeEndpoint } from './trigger/endpoint';
import { receiveDelivery } from './trigger/receive';
import { isValidSecret } from './trigger/signature';

export class DynamicQrTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR Trigger',
		name: 'dynamicQrTrigger',
		icon: { light: 'file:dynamicQrTrigger.svg', dark: 'file:dynamicQrTrigger.dark.svg' },
		group: ['trigger'],
		// Version 2: the dashboard secret is a credential, and no expression is evaluated for a
		// delivery (n8n evaluates one for every trigger at version 1), so n8n with
		// N8N_EXPRESSION_ENGINE_LAZY_ACQUIRE sets up no isolate for it.
		version: [1, 2],
		defaultVersion: 2,
		// The chosen events by name ("Scan Created, Lead Created"), not by value.
		subtitle: `={{ $parameter["events"].map((event) => (${JSON.stringify(
			Object.fromEntries(EVENT_OPTIONS.map((option) => [option.value, option.name])),
		)})[event] || event).join(", ") }}`,
		// n8n's nodes panel shows one entry for this trigger and the Dynamic QR node, with this
		// description: it speaks for both.
		description:
			'Create and re-point dynamic QR codes, download print files, and start workflows when a code is scanned, a lead arrives or a code changes',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-trigger',
		defaults: {
			name: 'Dynamic QR Trigger',
		},
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [
			{
				name: 'dynamicQrApi',
				required: true,
				displayOptions: {
					show: {
						endpointMode: ['automatic'],
					},
				},
			},
			{
				name: 'dynamicQrSigningSecretApi',
				required: true,
				// Hidden for the other mode rather than shown for this one: n8n's editor takes a field
				// whose every value shows a credential for an authentication choice and removes it
				// from the panel, which would leave Endpoint out of sight.
				displayOptions: {
					show: {
						'@version': [2],
					},
					hide: {
						endpointMode: ['automatic'],
					},
				},
				testedBy: 'signingSecretFormat',
			},
		],
		webhooks: [
			{
				name: 'default',
				httpMethod: 'POST',
				responseMode: 'onReceived',
				path: 'webhook',
			},
		],
		properties: [
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
				displayOptions: {
					show: {
						endpointMode: ['dashboard'],
					},
				},
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
				displayOptions: {
					show: {
						endpointMode: ['dashboard'],
						'@version': [1],
					},
				},
			},
			{
				displayName: 'Trigger On',
				name: 'events',
				type: 'multiOptions',
				required: true,
				default: [],
				options: EVENT_OPTIONS,
				description: 'The events that start the workflow; choose at least one',
			},
			{
				displayName: 'Filters',
				name: 'filters',
				type: 'collection',
				placeholder: 'Add Filter',
				default: {},
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
				],
			},
		],
	};

	methods = {
		credentialTest: {
			/** The credential's Test button: no API call knows the secret, so its form is checked. */
			async signingSecretFormat(
				this: ICredentialTestFunctions,
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
