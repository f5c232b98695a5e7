import type { IDataObject, INode } from 'n8n-workflow';
import { NodeOperationError } from 'n8n-workflow';

export const CREDENTIAL_NAME = 'dynamicQrApi';

/** Credential base URL without trailing slashes; anything but an API root ending in /api/v1 is refused. */
export function baseUrlOf(node: INode, credentials: IDataObject): string {
	const baseUrl = String(credentials.baseUrl ?? '')
		.trim()
		.replace(/\/+$/, '');
	if (!/^https?:\/\/.+\/api\/v1$/.test(baseUrl)) {
		throw new NodeOperationError(
			node,
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
export const siteUrlOf = (baseUrl: string): string => baseUrl.replace(/\/api\/v1$/, '');
