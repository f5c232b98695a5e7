import type {
	ICredentialsDecrypted,
	ICredentialTestFunctions,
	IDataObject,
	IHookFunctions,
	INodeCredentialTestResult,
	INodeType,
	INodeTypeDescription,
	IWebhookFunctions,
	IWebhookResponseData,
} from 'n8n-workflow';
import { NodeConnectionTypes, NodeOperationError } from 'n8n-workflow';

import { apiRequest } from '../DynamicQr/transport';
import { filterOut, isRepeatDelivery, parseIdList } from './delivery';
import { EVENT_OPTIONS, normaliseEvents } from './events';
import {
	assertReachable,
	clearEndpointState,
	deleteEndpoint,
	endpointState,
	isUsable,
	listEndpoints,
	selectedEvents,
	waitForRetiredEndpoint,
	webhookUrlOf,
} from './lifecycle';
import { describeFailure, isValidSecret, verifySignature } from './signature';

type EndpointMode = 'automatic' | 'dashboard';

function endpointMode(ctx: IHookFunctions | IWebhookFunctions): EndpointMode {
	return ctx.getNodeParameter('endpointMode', 'automatic') === 'dashboard'
		? 'dashboard'
		: 'automatic';
}

/**
 * The secret of an endpoint created in the dashboard, without the whitespace a copy and paste
 * brings along: from the signing-secret credential (version 2, stored encrypted), or from the
 * node parameter of version 1. Empty when there is none.
 */
async function dashboardSecret(ctx: IHookFunctions | IWebhookFunctions): Promise<string> {
	if (ctx.getNode().typeVersion < 2) {
		return String(ctx.getNodeParameter('signingSecret', '') ?? '').trim();
	}
	try {
		const credential = await ctx.getCredentials<{ signingSecret?: string }>(
			'dynamicQrSigningSecretApi',
		);
		return String(credential.signingSecret ?? '').trim();
	} catch {
		return '';
	}
}

/** Where the user sets the dashboard secret, in the words of the node's version. */
const secretSource = (ctx: IHookFunctions | IWebhookFunctions) =>
	ctx.getNode().typeVersion < 2
		? 'the Signing Secret parameter'
		: 'the Dynamic QR Webhook Signing Secret credential';

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
		subtitle: '={{$parameter["events"].join(", ")}}',
		description:
			'Starts the workflow when a QR code is created, updated or deleted, a code is scanned, or a lead is shared on a card',
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
			/**
			 * Whether the endpoint this node registered is still at the service, unchanged and
			 * active. Looks by the stored id and by URL + events, across all pages. Never deletes.
			 */
			async checkExists(this: IHookFunctions): Promise<boolean> {
				if (endpointMode(this) === 'dashboard') {
					selectedEvents(this);
					if (!isValidSecret(await dashboardSecret(this))) {
						throw new NodeOperationError(
							this.getNode(),
							`The signing secret in ${secretSource(this)} is missing or not a valid signing secret`,
							{
								description:
									'Copy the signing secret of the endpoint from the dashboard: it begins with "whsec_" followed by base64 text.',
							},
						);
					}
					return true;
				}
				const state = endpointState(this);
				const url = webhookUrlOf(this);
				const events = selectedEvents(this);
				await assertReachable(this, url);
				const endpoints = await listEndpoints(this);
				const byId = endpoints.find((endpoint) => endpoint.id === state.endpointId);
				if (isUsable(byId, state, url, events)) return true;
				const atUrl = endpoints.filter((endpoint) => endpoint.url === url);
				if (byId || atUrl.length > 0) {
					// Found but not usable (paused, other events, or registered without a secret
					// this node holds): create() replaces it.
					this.logger.info(
						`Dynamic QR Trigger: the webhook endpoint for ${url} needs replacing (${
							byId?.status === 'paused' ? 'paused at the service' : 'events or secret differ'
						})`,
					);
				}
				return false;
			},

			/**
			 * Registers the webhook URL with the chosen events and keeps the endpoint id and
			 * secret in the node's static data. Endpoints this node registered before, and any
			 * other endpoint pointing at exactly this node's webhook URL (it could not be
			 * verified: its secret is unknown here), are removed first.
			 */
			async create(this: IHookFunctions): Promise<boolean> {
				if (endpointMode(this) === 'dashboard') return true;
				const state = endpointState(this);
				const url = webhookUrlOf(this);
				const events = selectedEvents(this);
				await assertReachable(this, url);

				const stale = (await listEndpoints(this)).filter(
					(endpoint) => endpoint.id === state.endpointId || endpoint.url === url,
				);
				const staleIds = new Set(stale.map((endpoint) => endpoint.id));
				if (state.endpointId) staleIds.add(state.endpointId);
				for (const id of staleIds) {
					const problem = await deleteEndpoint(this, id);
					if (problem) {
						this.logger.warn(
							`Dynamic QR Trigger: could not remove the outdated webhook endpoint ${id}: ${problem}`,
						);
					}
				}
				await waitForRetiredEndpoint(state, Date.now());
				clearEndpointState(state);

				const answer = await apiRequest<IDataObject>(this, 'POST', '/webhooks', {
					body: { url, events },
				});
				const record = (answer.data ?? answer) as IDataObject;
				const id = typeof record.id === 'string' ? record.id : undefined;
				if (!id || !isValidSecret(record.secret)) {
					if (id) await deleteEndpoint(this, id);
					throw new NodeOperationError(
						this.getNode(),
						'The service registered the webhook endpoint but did not return a usable signing secret',
						{
							description:
								'Deliveries could not be verified, so the endpoint was removed again. Try activating again; if it persists, create the endpoint in the dashboard and use the "Created in the Dashboard" mode.',
						},
					);
				}
				state.endpointId = id;
				state.secret = record.secret as string;
				state.url = url;
				state.events = events;
				return true;
			},

			/**
			 * Removes the endpoint this node registered (and, in automatic mode, any other endpoint
			 * pointing at this node's webhook URL). A 404 counts as removed; anything else is
			 * logged and the id kept, so the next activation removes it.
			 */
			async delete(this: IHookFunctions): Promise<boolean> {
				const state = endpointState(this);
				const ids = new Set<string>();
				if (state.endpointId) ids.add(state.endpointId);
				if (endpointMode(this) === 'automatic') {
					try {
						const url = webhookUrlOf(this);
						for (const endpoint of await listEndpoints(this)) {
							if (endpoint.url === url) ids.add(endpoint.id);
						}
					} catch (error) {
						this.logger.warn(
							`Dynamic QR Trigger: could not list webhook endpoints to clean up: ${(error as Error).message}`,
						);
					}
				}
				const failed: string[] = [];
				for (const id of ids) {
					const problem = await deleteEndpoint(this, id);
					if (problem) {
						failed.push(id);
						this.logger.warn(
							`Dynamic QR Trigger: could not remove webhook endpoint ${id}: ${problem}. Remove it in the service's dashboard if it stays.`,
						);
					}
				}
				const keep =
					state.endpointId && failed.includes(state.endpointId) ? state.endpointId : undefined;
				if (state.endpointId) state.retiredAt = Date.now();
				clearEndpointState(state);
				if (keep) state.endpointId = keep;
				return failed.length === 0;
			},
		},
	};

	async webhook(this: IWebhookFunctions): Promise<IWebhookResponseData> {
		const req = this.getRequestObject();
		const mode = endpointMode(this);
		const secret =
			mode === 'dashboard'
				? await dashboardSecret(this)
				: (this.getWorkflowStaticData('node') as IDataObject).secret;

		const refuse = (why: string): IWebhookResponseData => {
			this.logger.debug(`Dynamic QR Trigger: delivery refused: ${why}`);
			const res = this.getResponseObject();
			res.status(401).json({ message: 'Webhook signature verification failed' });
			return { noWebhookResponse: true };
		};

		// Fail closed: without a usable secret no delivery can be trusted.
		if (!isValidSecret(secret)) {
			this.logger.warn(
				mode === 'dashboard'
					? `Dynamic QR Trigger: the signing secret in ${secretSource(this)} is missing or not a valid "whsec_" secret; deliveries are refused`
					: 'Dynamic QR Trigger: no signing secret is stored for this workflow (deactivate and activate it again); deliveries are refused',
			);
			return refuse('no valid signing secret');
		}

		if (req.rawBody === undefined && typeof req.readRawBody === 'function') {
			await req.readRawBody();
		}
		const raw: Buffer = Buffer.isBuffer(req.rawBody) ? req.rawBody : Buffer.alloc(0);

		const result = verifySignature(secret, req.headers, raw, Math.floor(Date.now() / 1000));
		if (!result.valid) return refuse(describeFailure(result.reason));

		let parsed: unknown;
		try {
			parsed = JSON.parse(raw.toString('utf8'));
		} catch {
			parsed = undefined;
		}
		if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
			this.logger.warn(
				'Dynamic QR Trigger: a correctly signed delivery had a body that is not a JSON object',
			);
			const res = this.getResponseObject();
			res.status(400).json({ message: 'The body is not a JSON event' });
			return { noWebhookResponse: true };
		}
		const envelope = parsed as IDataObject;

		const type = String(envelope.type ?? '');
		const data =
			envelope.data && typeof envelope.data === 'object' && !Array.isArray(envelope.data)
				? (envelope.data as IDataObject)
				: undefined;
		const filters = this.getNodeParameter('filters', {}) as IDataObject;
		const skip = filterOut(type, data, {
			events: normaliseEvents(this.getNodeParameter('events', [])),
			qrCodeIds: parseIdList(filters.qrCodeIds),
			cardIds: parseIdList(filters.cardIds),
		});
		if (skip) {
			return { webhookResponse: { received: true, started: false, reason: skip } };
		}

		const node = this.getNode();
		const trigger = `${this.getWorkflow().id ?? ''}\u0000${node.id ?? node.name}`;
		const stored = this.getWorkflowStaticData('node');
		if (isRepeatDelivery(stored, trigger, result.id, Date.now())) {
			return { webhookResponse: { received: true, started: false, reason: 'duplicate delivery' } };
		}

		// Answered here, as n8n would ("Workflow was started"), so that n8n saves the delivery
		// record at once: when n8n answers itself, it starts the workflow first, and that resets
		// the flag that tells it the static data changed, so the record would never be saved.
		this.getResponseObject().status(200).json({ message: 'Workflow was started' });
		return {
			noWebhookResponse: true,
			workflowData: [
				[
					{
						json: {
							id: envelope.id ?? result.id,
							type,
							created_at: envelope.created_at ?? null,
							data: (envelope.data ?? null) as IDataObject,
							webhook_id: result.id,
							webhook_timestamp: result.timestamp,
						},
					},
				],
			],
		};
	}
}
