import type { Icon, ICredentialType, INodeProperties } from 'n8n-workflow';

/**
 * The signing secret of a webhook endpoint created in the service's dashboard, for the Dynamic QR
 * Trigger (version 2) in "Created in the Dashboard" mode. Kept as a credential so that n8n stores
 * it encrypted, not in clear text in the workflow. No API call uses it: deliveries are checked
 * against it.
 */
export class DynamicQrSigningSecretApi implements ICredentialType {
	name = 'dynamicQrSigningSecretApi';

	displayName = 'Dynamic QR Webhook Signing Secret API';

	icon: Icon = {
		light: 'file:../nodes/DynamicQr/dynamicQrTrigger.svg',
		dark: 'file:../nodes/DynamicQr/dynamicQrTrigger.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'Signing Secret',
			name: 'signingSecret',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
			description:
				'The signing secret the dashboard shows for the webhook endpoint you created for the trigger; it begins with "whsec_"',
		},
	];
}
