import type { INodeType, INodeTypeDescription, IPollFunctions } from 'n8n-workflow';
import { NodeConnectionTypes } from 'n8n-workflow';

import { loadOptions } from './methods/listSearch';
import { pollingProperties } from './polling/pollingProperties';
import { poll } from './polling/poll';

export class DynamicQrPollingTrigger implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR Polling Trigger',
		name: 'dynamicQrPollingTrigger',
		icon: {
			light: 'file:dynamicQrPollingTrigger.svg',
			dark: 'file:dynamicQrPollingTrigger.dark.svg',
		},
		group: ['trigger'],
		version: 1,
		subtitle:
			'={{ $parameter["event"] === "newQrCode" ? "New QR code" : $parameter["event"] === "newScans" ? "New scans" : $parameter["event"] === "scanMilestone" ? "Scan milestone" : $parameter["event"] === "quietCode" ? "Quiet code" : $parameter["event"] === "endpointStopped" ? "Webhook endpoint stopped" : "New lead" }}',
		description:
			'Starts the workflow on new leads, new QR codes, new scans, scan milestones, quiet codes or stopped webhook endpoints by asking the API on a schedule; for n8n instances the service cannot reach',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-polling-trigger',
		defaults: { name: 'Dynamic QR Polling Trigger' },
		// For n8n's AI workflow builder (n8n 2.x; n8n 1.x ignores it). Plain text, no expressions.
		builderHint: {
			searchHint:
				'Starts a workflow on new leads (of one, some or all cards), new QR codes, new scans, a code reaching a scan count (Scan Milestone), a code with no scan for some days (Quiet Code) or a webhook endpoint that stopped receiving (to repair a Dynamic QR Trigger), by asking the Dynamic QR API at the poll times set on the node. Use it where the service cannot reach n8n (localhost, private network); otherwise the Dynamic QR Trigger is instant. Records and scans from before activation never start it.',
			relatedNodes: Object.entries({
				'n8n-nodes-base.googleSheets': 'Appends each new lead as a row',
				'n8n-nodes-base.gmail': 'Sends a follow-up email to each new lead',
				'n8n-nodes-base.slack': 'Announces new leads or new codes in a channel',
				'n8n-nodes-base.hubspot': 'Adds each new lead as a CRM contact',
				'n8n-nodes-dynamic-qr.dynamicQr': 'Reads or changes a new code, or downloads its image',
				'n8n-nodes-dynamic-qr.dynamicQrTrigger':
					'Use instead when n8n has a public HTTPS address: instant, and covers scans and code changes',
			}).map(([nodeType, relationHint]) => ({ nodeType, relationHint })),
		},
		polling: true,
		inputs: [],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dynamicQrApi', required: true }],
		properties: pollingProperties,
	};

	methods = { loadOptions };

	async poll(this: IPollFunctions) {
		return await poll(this);
	}
}
