import type { IExecuteFunctions, INodeType, INodeTypeDescription } from 'n8n-workflow';
import { NodeConnectionTypes, VersionedNodeType } from 'n8n-workflow';

import { RESOURCES } from './actions/resources';
import { router } from './actions/router';
import { requestOptionsProperty } from './actions/operationParameters';
import { ACTION_VERSIONS, LATEST_ACTION_VERSION, propertiesOfVersion } from './actions/versions';
import { listSearch } from './methods/listSearch';
import { nodeVersions } from './shared/nodeVersions';

const properties: INodeTypeDescription['properties'] = [
	{
		displayName: 'Resource',
		name: 'resource',
		type: 'options',
		noDataExpression: true,
		options: RESOURCES.map(({ name, value }) => ({ name, value })),
		default: 'qrCode',
	},
	...RESOURCES.flatMap(({ description }) => description),
	requestOptionsProperty,
];

/**
 * The canvas subtitle, from the operations' own actions. A list of pairs: an object would also
 * hold "constructor", and a nested one would end in "}}" and close the expression early.
 */
const actionPairs = RESOURCES.flatMap(({ value, options }) =>
	options.map((option) => [`${value}:${option.value}`, option.action ?? option.name]),
);
const subtitle = `={{ (${JSON.stringify(actionPairs)}.find((pair) => pair[0] === $parameter["resource"] + ":" + $parameter["operation"]) || ["", ""])[1] }}`;

/** One version of the node: the properties it has; every version runs the same operations. */
class DynamicQrVersion implements INodeType {
	description: INodeTypeDescription = {
		displayName: 'Dynamic QR',
		name: 'dynamicQr',
		icon: { light: 'file:dynamicQr.svg', dark: 'file:dynamicQr.dark.svg' },
		group: ['transform'],
		version: LATEST_ACTION_VERSION,
		subtitle,
		description:
			'Create and re-point dynamic QR codes, download print files, read scans, cards and leads',
		documentationUrl:
			'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#dynamic-qr-action-node',
		defaults: { name: 'Dynamic QR' },
		usableAsTool: true,
		// For n8n's AI workflow builder (n8n 2.x; n8n 1.x ignores it). Plain text, no expressions.
		builderHint: {
			searchHint:
				'Dynamic QR codes whose destination can change after printing. Create codes from sheet or CRM rows (Create or Update keeps them in line on every re-run), re-point, pause or delete them, download print files (PNG, SVG, PDF, EPS), and read scan statistics, cards and leads. It handles every input item and waits out rate limits itself, so no loop node is needed. Also works as a tool of an AI agent.',
			relatedNodes: Object.entries({
				'n8n-nodes-base.googleSheets':
					"Rows to create or update codes from; write each code's ID and short link back to its row",
				'n8n-nodes-base.scheduleTrigger':
					'Runs a sync from a sheet or a scan report every day or week',
				'n8n-nodes-base.gmail':
					'Sends a downloaded QR code image as an attachment, or a scan report',
				'n8n-nodes-base.slack': "Posts a new code's short link or its scan statistics to a channel",
				'n8n-nodes-base.googleDrive': 'Stores downloaded print files',
				'n8n-nodes-base.httpRequest': 'Downloads a logo image for Logo Upload',
				'@n8n/n8n-nodes-langchain.agent':
					'Calls this node as a tool to create, find and re-point codes',
				'n8n-nodes-dynamic-qr.dynamicQrTrigger':
					'Starts a workflow when a code is scanned or a lead arrives',
			}).map(([nodeType, relationHint]) => ({ nodeType, relationHint })),
		},
		inputs: [NodeConnectionTypes.Main],
		outputs: [NodeConnectionTypes.Main],
		credentials: [{ name: 'dynamicQrApi', required: true }],
		properties,
	};

	methods = { listSearch };

	constructor(version: number) {
		const ofVersion = propertiesOfVersion(properties, version);
		this.description = { ...this.description, version, properties: ofVersion };
	}

	async execute(this: IExecuteFunctions) {
		return await router.call(this);
	}
}

/** Version 1 keeps the parameters saved workflows hold; new nodes get the latest version. */
export class DynamicQr extends VersionedNodeType {
	constructor() {
		super(...nodeVersions(ACTION_VERSIONS.map((version) => new DynamicQrVersion(version))));
	}
}
