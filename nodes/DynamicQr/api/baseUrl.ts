import type { IDataObject } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

import type { ApiContext } from './request';

export const CREDENTIAL_NAME = 'dynamicQrApi';

/** Credential base URL without trailing slashes; anything but an API root ending in /api/v1 is refused. */
export async function getBaseUrl(ctx: ApiContext): Promise<string> {
	const credentials = await ctx.getCredentials<IDataObject>(CREDENTIAL_NAME);
	const baseUrl = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/.+\/api\/v1$/.test(baseUrl)) {
		throw new NodeOperationError(
			ctx.getNode(),
			`The Base URL "${baseUrl}" of the Dynamic QR API credential is not an API root`,
			{
				description:
					'Set the Base URL to the root of the API, ending in /api/v1, for example https://qr.example.com/api/v1.',
			},
		);
	}
	return baseUrl;
}

/** The service's site (dashboard links live there): the base URL without /api/v1. */
export async function getSiteUrl(ctx: ApiContext): Promise<string> {
	return (await getBaseUrl(ctx)).replace(/\/api\/v1$/, '');
}
