import type {
	IAuthenticateGeneric,
	Icon,
	ICredentialTestRequest,
	ICredentialType,
	INodeProperties,
} from 'n8n-workflow';

export class DynamicQrApi implements ICredentialType {
	name = 'dynamicQrApi';

	displayName = 'Dynamic QR API';

	icon: Icon = {
		light: 'file:../nodes/DynamicQr/dynamicQr.svg',
		dark: 'file:../nodes/DynamicQr/dynamicQr.dark.svg',
	};

	documentationUrl = 'https://github.com/n8n-nodes-dynamic-qr/n8n-nodes-dynamic-qr#credentials';

	properties: INodeProperties[] = [
		{
			displayName: 'API Key',
			name: 'apiKey',
			type: 'string',
			typeOptions: { password: true },
			required: true,
			default: '',
			placeholder: 'e.g. api_1a2b3c4d5e6f',
			description:
				'Keys begin with "api_". The workspace owner or an administrator creates them in the developer settings of the dashboard. A read-only key can list and get codes, cards, leads, scans and images; creating, changing or deleting codes and webhook endpoints needs a read-write key.',
		},
		{
			displayName: 'Base URL',
			name: 'baseUrl',
			type: 'string',
			required: true,
			default: '',
			placeholder: 'e.g. https://qr.example.com/api/v1',
			description: 'The root of the API, ending in /api/v1 (a trailing slash is fine)',
		},
	];

	authenticate: IAuthenticateGeneric = {
		type: 'generic',
		properties: {
			headers: {
				Authorization: '=Bearer {{$credentials.apiKey}}',
			},
		},
	};

	test: ICredentialTestRequest = {
		request: {
			baseURL: '={{$credentials.baseUrl.trim().replace(/\\/+$/, "")}}',
			url: '/me',
		},
		rules: [
			{
				type: 'responseCode',
				properties: {
					value: 401,
					message:
						'The API key was refused: it is wrong, revoked, or its creator left the team. Create a new key in the developer settings of the dashboard.',
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 403,
					message:
						"The workspace's plan has no API access. Move to a plan with API access, then create a new key.",
				},
			},
			{
				type: 'responseCode',
				properties: {
					value: 404,
					message:
						'No Dynamic QR API answered at this Base URL. It must be the API root, ending in /api/v1.',
				},
			},
		],
	};
}
