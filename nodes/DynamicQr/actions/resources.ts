import type { INodeProperties } from 'n8n-workflow';

import * as account from './account';
import * as card from './card';
import * as lead from './lead';
import * as logo from './logo';
import * as qrCode from './qrCode';
import type { OperationModule } from './run';
import * as staticQrCode from './staticQrCode';
import * as webhookEndpoint from './webhookEndpoint';

interface Resource {
	name: string;
	value: string;
	operations: Record<string, OperationModule>;
	/** The resource's Operation parameter and every operation's fields. */
	description: INodeProperties[];
}

/** The action node's resources, in the order the Resource parameter lists them. */
export const RESOURCES: Resource[] = [
	{ name: 'Account', value: 'account', ...account },
	{ name: 'Card', value: 'card', ...card },
	{ name: 'Lead', value: 'lead', ...lead },
	{ name: 'Logo', value: 'logo', ...logo },
	{ name: 'QR Code', value: 'qrCode', ...qrCode },
	{ name: 'Static QR Code', value: 'staticQrCode', ...staticQrCode },
	{ name: 'Webhook Endpoint', value: 'webhookEndpoint', ...webhookEndpoint },
];
